"""Runs efsan-calibrate into a fresh profile and checks what it wrote.

  check_calibrate.py EFSAN_CALIBRATE PROFILE [--via-options]

A busy machine may keep no round (the two threads never ran side by side):
efsan-calibrate then says so, exits 1 and writes nothing, which is right too.
Otherwise the profile has this machine's key, one to five measurements of
each kind, transfers of 10-2000 ns and losses in [0, 1); and a second run
adds to it. Prints "calibrated N" (measurements kept) or "busy", or the
problems.
"""
import os
import re
import subprocess
import sys

tool, profile = sys.argv[1], sys.argv[2]
# --via-options: the profile named by ESAN_OPTIONS, not by --profile.
via_options = sys.argv[3:] == ["--via-options"]


def run():
    if via_options:
        env = dict(os.environ, ESAN_OPTIONS="verbosity=0:cache_frag_machine_profile=" + profile)
        return subprocess.run([tool], capture_output=True, text=True, env=env)
    return subprocess.run([tool, "--profile", profile], capture_output=True, text=True)


def measurements():
    values = {}
    key = None
    for line in open(profile):
        words = line.split()
        if words and words[0] == "key":
            key = words[1]
        elif words and words[0] in ("transfer_ns", "rmw_loss_ppm"):
            values[words[0]] = [int(w) for w in words[1:]]
    return key, values


problems = []
first = run()
out = first.stdout + first.stderr
if first.returncode == 1 and "no round ran both threads side by side" in out:
    if os.path.exists(profile):
        problems.append("a run that kept nothing wrote the profile")
    print("\n".join(problems) or "busy")
    sys.exit(1 if problems else 0)
if first.returncode != 0:
    print("efsan-calibrate exited %d: %s" % (first.returncode, out))
    sys.exit(1)
machine = re.search(r"efsan-calibrate: machine (\S+), CPUs", out)
key, values = measurements()
if not machine or key != machine.group(1):
    problems.append("profile key %r, machine %r" % (key, machine and machine.group(1)))
n = len(values.get("transfer_ns", []))
if not 1 <= n <= 5 or len(values.get("rmw_loss_ppm", [])) != n:
    problems.append("measurements: %r" % values)
if not all(10 <= v <= 2000 for v in values.get("transfer_ns", [])):
    problems.append("transfers %r" % values.get("transfer_ns"))
if not all(0 <= v < 1000000 for v in values.get("rmw_loss_ppm", [])):
    problems.append("losses %r" % values.get("rmw_loss_ppm"))
if not re.search(r"rounds? added to %s; the profile now holds:" % re.escape(profile), out):
    problems.append("no summary: %s" % out)
second = run()
if second.returncode == 0:
    _, again = measurements()
    if len(again.get("transfer_ns", [])) <= n:
        problems.append("a second run added nothing: %r" % again)
print("\n".join(problems) or "calibrated %d" % n)
sys.exit(1 if problems else 0)
