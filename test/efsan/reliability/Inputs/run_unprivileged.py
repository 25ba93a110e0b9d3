"""run_unprivileged.py CMD...: runs CMD as user nobody (uid/gid 65534) when
run as root (file permissions do not stop root), else as the current user.
Exits with CMD's status."""
import os, shutil, subprocess, sys

cmd = sys.argv[1:]
if os.geteuid() == 0:
    setpriv = shutil.which("setpriv")
    if not setpriv:
        sys.exit("setpriv is needed to drop root")
    cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] + cmd
sys.exit(subprocess.run(cmd).returncode)
