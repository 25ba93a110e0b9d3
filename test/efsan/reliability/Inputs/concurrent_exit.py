"""Runs PROGRAM WORKERS STATUS RUNS times in text and JSON mode; every run
must exit with STATUS and leave exactly one complete report."""
import glob, json, os, subprocess, sys

program, directory, workers, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
status = 7
for run in range(runs):
    env = dict(os.environ, ESAN_OPTIONS="")
    r = subprocess.run([program, workers, str(status)], env=env,
                       capture_output=True, timeout=120)
    if r.returncode != status:
        sys.exit("run %d: status %d" % (run, r.returncode))
    err = r.stderr.decode()
    if err.count("SUMMARY: EfficiencySanitizer") != 1 or \
       err.count("the total working set size") != 1:
        sys.exit("run %d: not exactly one complete text report:\n%s" % (run, err))
    prefix = os.path.join(directory, "r%d" % run)
    env["ESAN_OPTIONS"] = "report_format=json:log_path=" + prefix
    r = subprocess.run([program, workers, str(status)], env=env,
                       capture_output=True, timeout=120)
    files = glob.glob(prefix + ".*")
    if r.returncode != status or len(files) != 1:
        sys.exit("run %d: status %d, report files %s" % (run, r.returncode, files))
    with open(files[0]) as f:
        report = json.load(f)  # fails on a truncated report
    if report["tool"] != "working-set":
        sys.exit("run %d: bad report %r" % (run, report))
print("ok")
