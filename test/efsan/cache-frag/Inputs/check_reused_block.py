"""Checks reused-block.c's JSON report: every finding on the block is false
sharing (or a prediction), with no true-sharing invalidation, and names the
block once, as one object of several allocations.

  check_reused_block.py REPORT.json

Prints "ok", or one line per problem and exits 1.
"""
import json
import sys

report = json.load(open(sys.argv[1]))
findings = report["findings"]
problems = []
if not any(f["kind"] == "false-sharing" for f in findings):
    problems.append("no false-sharing finding: %s" % [f["kind"] for f in findings])
for i, f in enumerate(findings):
    if f["kind"] == "true-sharing":
        problems.append("finding %d is true sharing" % i)
    if f["kind"] != "false-sharing":
        continue
    if f["true_sharing_invalidations"] != 0:
        problems.append("finding %d: %d true-sharing invalidations"
                        % (i, f["true_sharing_invalidations"]))
    objects = f["objects"]
    if len(objects) != 1 or objects[0]["kind"] != "heap" or objects[0]["allocations"] < 2:
        problems.append("finding %d objects: %s" % (i, [
            (o["kind"], o.get("address"), o.get("allocations")) for o in objects]))
for p in problems:
    print(p)
print("ok" if not problems else "%d problems" % len(problems))
sys.exit(1 if problems else 0)
