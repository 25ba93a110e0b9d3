"""Checks the one JSON report that an efsan run wrote to LOG_PREFIX.<pid>.

usage: check_report.py LOG_PREFIX KEY=VALUE...
KEY is a dotted path into the report (regions.globals, tool, structs.name);
a path through a list matches if any element matches. VALUE is compared as a
string, or as an integer with a leading >= . Always required: schema_version
1, an integer pid and a string executable.
"""
import glob
import json
import sys


def values(node, path):
    if not path:
        yield node
    elif isinstance(node, list):
        for item in node:
            yield from values(item, path)
    elif isinstance(node, dict) and path[0] in node:
        yield from values(node[path[0]], path[1:])


def matches(value, want):
    if want.startswith(">="):
        return isinstance(value, int) and value >= int(want[2:])
    return str(value) == want


def main():
    prefix, checks = sys.argv[1], sys.argv[2:]
    logs = glob.glob(prefix + ".*")
    if len(logs) != 1:
        sys.exit("expected one report %s.<pid>, found %d" % (prefix, len(logs)))
    with open(logs[0]) as f:
        report = json.load(f)
    # Every report identifies itself (docs/JSONSchema.md).
    if report.get("schema_version") != 5 or not isinstance(report.get("pid"), int) \
            or not isinstance(report.get("executable"), str):
        sys.exit("schema_version, pid or executable missing or wrong: %r" %
                 {k: report.get(k) for k in ("schema_version", "pid", "executable")})
    for check in checks:
        key, want = check.split("=", 1)
        got = list(values(report, key.split(".")))
        if not any(matches(v, want) for v in got):
            sys.exit("%s: want %s, report has %r" % (key, want, got))
    print("report ok")


main()
