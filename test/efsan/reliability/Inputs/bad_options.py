"""bad_options.py PROGRAM DIR: runs PROGRAM with each bad ESAN_OPTIONS string
below, alone and together with log_path=DIR/log and exitcode=0. Each run must
print exactly one line, "EfficiencySanitizer: ERROR: ESAN_OPTIONS: ...", on
stderr, nothing on stdout (main never runs), write no log file, and exit 1."""
import glob, os, shutil, subprocess, sys

program, directory = sys.argv[1], sys.argv[2]
BAD = [
    "sample_freq=0", "sample_freq=-1", "sample_freq=abc", "sample_freq=",
    "sample_freq=99999999999", "snapshot_step=0", "snapshot_step=5",
    "snapshot_history=0", "snapshot_history=65537", "record_snapshots=2",
    "sample_clock=moon", "sample_clock=", "report_objects=-1",
    "report_objects=101",
    "record_snapshots=maybe", "report_format=xml", "report_format=JSON",
    "report_at_exit=", "verbosity=1x", "verbosity=99999999999999999999",
    "no_such_option=1", "sample_freq", "=1", "log_path='open",
    "sample_freq='5'x", "handle_segv=3", "handle_segv=02", "handle_segv=-0",
    "handle_segv=+1", "handle_abort=exclusivee", "exitcode=300",
    "exitcode=-1", "exitcode=256", "mmap_limit_mb=1", "mmap_limit_mb=-5",
    "malloc_context_size=x", "include=/nonexistent/efsan-options",
    "external_symbolizer_path=/bin/false",
    "external_symbolizer_path=/nonexistent/llvm-symbolizer",
    "log_path=/proc/efsan-cannot-create/r",
]
GOOD = ["handle_segv=exclusive", "handle_segv=2", "handle_abort=no",
        "exitcode=0", "exitcode=255", "mmap_limit_mb=0",
        "include_if_exists=/nonexistent/efsan-options"]

failures = []
for bad in BAD:
    # The option under test comes last: a later value wins.
    for extra in ["", "log_path=%s/log:exitcode=0:" % directory]:
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        options = extra + bad
        r = subprocess.run([program], env=dict(os.environ, ESAN_OPTIONS=options),
                           capture_output=True, timeout=60)
        lines = r.stderr.decode(errors="replace").splitlines()
        logs = glob.glob(os.path.join(directory, "log*"))
        if (r.returncode != 1 or r.stdout or len(lines) != 1 or
                not lines[0].startswith("EfficiencySanitizer: ERROR: ESAN_OPTIONS: ") or
                any(os.path.getsize(f) for f in logs)):
            failures.append("%r: status %d, stdout %r, stderr %r, logs %r" %
                            (options, r.returncode, r.stdout, lines, logs))
for good in GOOD:
    r = subprocess.run([program], env=dict(os.environ, ESAN_OPTIONS=good),
                       capture_output=True, timeout=60)
    if r.returncode != 0 or b"main ran" not in r.stdout:
        failures.append("%r: rejected: status %d, stderr %r" %
                        (good, r.returncode, r.stderr))
if failures:
    sys.exit("\n".join(failures))
print("ok: %d bad, %d good" % (len(BAD), len(GOOD)))
