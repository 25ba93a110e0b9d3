"""Checks a process tree's directory of reports.

usage: check_tree_dir.py DIR DESCENDANTS TOOL PROGRAM [EXPR ...]

DIR must hold DESCENDANTS + 1 files PID.json, each one JSON report of TOOL
whose pid is its file's, all of the tree whose root is the directory's
(efsan.PROGRAM.ROOTPID): the root's own (process_tree.descendant_reports is
DESCENDANTS) and its descendants' (descendant_reports null, another pid). Each EXPR must be true with
`reports` (all of them, in the order of their pids) as a variable.
Prints "tree ok: ..." or the problems and exits 1.
"""
import json
import os
import re
import sys


def main():
    directory, descendants, tool, program = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    exprs = sys.argv[5:]
    reports = []
    match = re.fullmatch(r"efsan\.(.+)\.([0-9]+)", os.path.basename(directory.rstrip("/")))
    problems = []
    if not match or match.group(1) != program:
        print("check_tree_dir: %s is not named efsan.%s.PID" % (directory, program))
        return 1
    root = int(match.group(2))
    names = sorted(os.listdir(directory))
    if len(names) != descendants + 1:
        problems.append("%d files, want %d: %s" % (len(names), descendants + 1, names))
    roots = 0
    for name in names:
        if not re.fullmatch(r"[0-9]+\.json", name):
            problems.append("%s: not PID.json" % name)
            continue
        with open(os.path.join(directory, name)) as f:
            report = json.load(f)
        reports.append(report)
        tree = report.get("process_tree") or {}
        pid = int(name.split(".")[0])
        if report.get("tool") != tool or report.get("pid") != pid:
            problems.append("%s: tool %s pid %s" % (name, report.get("tool"), report.get("pid")))
        if tree.get("root_pid") != root or tree.get("directory") != directory.rstrip("/"):
            problems.append("%s: process_tree %s" % (name, tree))
        if pid == root:
            roots += 1
            if tree.get("descendant_reports") != descendants:
                problems.append("%s: the root counted %s descendants" % (name, tree.get("descendant_reports")))
        elif tree.get("descendant_reports") is not None:
            problems.append("%s: a descendant with descendant_reports %s" % (name, tree["descendant_reports"]))
    if roots != 1:
        problems.append("%d reports of the root %d" % (roots, root))
    reports.sort(key=lambda r: r.get("pid", 0))
    for e in exprs:
        if not eval(e, {"reports": reports}):
            problems.append("false: %s" % e)
    for p in problems:
        print("check_tree_dir: " + p)
    if problems:
        return 1
    print("tree ok: root %d and %d descendants" % (root, descendants))
    return 0


if __name__ == "__main__":
    sys.exit(main())
