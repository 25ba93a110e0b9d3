"""run_setuid.py PROGRAM ARGS...: copies PROGRAM to a fresh directory that
user nobody can reach, makes the copy setuid root, and runs it as nobody
(uid/gid 65534) with the current environment. Prints the copy's stdout and
stderr as its own and exits with its status. Needs root and setpriv."""
import os, shutil, subprocess, sys, tempfile

program = sys.argv[1]
directory = tempfile.mkdtemp(prefix="efsan-setuid-")
try:
    os.chmod(directory, 0o755)
    copy = os.path.join(directory, os.path.basename(program))
    shutil.copy(program, copy)
    os.chown(copy, 0, 0)
    os.chmod(copy, 0o4755)
    r = subprocess.run([shutil.which("setpriv"), "--reuid=65534", "--regid=65534",
                        "--clear-groups", copy] + sys.argv[2:],
                       capture_output=True, cwd=directory)
    sys.stdout.buffer.write(r.stdout)
    sys.stderr.buffer.write(r.stderr)
    sys.exit(r.returncode)
finally:
    shutil.rmtree(directory, ignore_errors=True)
