"""Checks that a JSON report's false-sharing findings count at most a part
of their invalidations as true sharing.

  check_true_part.py --most PART REPORT.json

Prints "ok", or one line per problem and exits 1.
"""
import argparse
import json
import sys

parser = argparse.ArgumentParser()
parser.add_argument("--most", type=float, required=True)
parser.add_argument("report")
args = parser.parse_args()
findings = json.load(open(args.report))["findings"]
problems = []
false_sharing = [f for f in findings if f["kind"] == "false-sharing"]
if not false_sharing:
    problems.append("no false-sharing finding: %s" % [f["kind"] for f in findings])
for f in false_sharing:
    part = f["true_sharing_invalidations"] / max(f["invalidations"], 1)
    if part > args.most:
        problems.append("%d of %d invalidations true sharing (%.3f, most %.3f)"
                        % (f["true_sharing_invalidations"], f["invalidations"],
                           part, args.most))
for p in problems:
    print(p)
print("ok" if not problems else "%d problems" % len(problems))
sys.exit(1 if problems else 0)
