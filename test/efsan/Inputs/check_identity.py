"""Checks the keys that identify a JSON report (docs/JSONSchema.md) against
what the program itself printed.

usage: check_identity.py STDOUT LOG_PREFIX TOOL EXECUTABLE

STDOUT holds one line "pid N" per process of the run (each process prints
its own getpid()). Every LOG_PREFIX.<pid> file (log_path=LOG_PREFIX) must
be one JSON report whose first keys are "tool", "schema_version", "pid",
"executable" in that order, with tool TOOL, schema_version 5, pid the one in
its file name, and executable the file EXECUTABLE (the path the kernel
knows, whatever argv[0] was). The reports' pids must be exactly the printed
ones, one report each. Prints "identity ok N" or the problems and exits 1.
"""
import glob
import json
import os
import re
import sys


def main():
    stdout, prefix, tool, executable = sys.argv[1:]
    printed = sorted(int(m) for m in re.findall(r"^pid (\d+)$", open(stdout).read(), re.M))
    paths = sorted(p for p in glob.glob(prefix + ".*") if p[len(prefix) + 1:].isdigit())
    problems = []
    report_pids = []
    for path in paths:
        # Keep the keys in their printed order.
        report = json.load(open(path), object_pairs_hook=lambda pairs: pairs)
        keys = [k for k, _ in report]
        values = dict(report)
        if keys[:4] != ["tool", "schema_version", "pid", "executable"]:
            problems.append("%s: first keys %s" % (path, keys[:4]))
        if values.get("tool") != tool:
            problems.append("%s: tool %r" % (path, values.get("tool")))
        version = values.get("schema_version")
        if type(version) is not int or version != 5:
            problems.append("%s: schema_version %r" % (path, version))
        pid = values.get("pid")
        if type(pid) is not int or str(pid) != path.rsplit(".", 1)[1]:
            problems.append("%s: pid %r does not name its file" % (path, pid))
        report_pids.append(pid)
        exe = values.get("executable")
        if not isinstance(exe, str) or not os.path.isabs(exe) or \
                os.path.basename(exe) != os.path.basename(executable) or \
                not os.path.samefile(exe, executable):
            problems.append("%s: executable %r is not %s" % (path, exe, executable))
    if not printed:
        problems.append("the program printed no pid")
    if sorted(report_pids) != printed:
        problems.append("report pids %s, printed pids %s" % (sorted(report_pids), printed))
    for line in problems:
        print("check_identity: " + line)
    if problems:
        return 1
    print("identity ok %d" % len(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
