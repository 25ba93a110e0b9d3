"""Checks a cache-frag JSON report against what a test knows of its program.

  check_findings.py REPORT.json [--expect KIND:OBJECT]... [--only] [--none]
                    [--threads T,T...] [--bytes T:OFFSET:LENGTH]...
                    [--max-invalidations N] [--min-invalidations N]
                    [--min-objects N] [--min-share S] [--max-share S]
                    [--at-bound yes|no]

KIND is false-sharing, true-sharing or predicted-false-sharing; OBJECT is
global=NAME, heap=FILE (a frame of the allocation stack is in FILE),
stack=THREAD or unknown. Every --expect must match a finding whose objects
include OBJECT; --only: no finding beyond the expected ones; --none: no
finding at all. --threads: the expected findings involve exactly these
threads. --bytes: thread T accessed [OFFSET, OFFSET+LENGTH) of the line of
the first expected finding. --min-objects: the expected findings name at
least N distinct objects (heap blocks by allocation site); --objects: each
expected finding has exactly N object rows. Always checked: the documented keys, shares in
[0, 1], no estimate above the writes the finding counts (physically
impossible), one row per object (no two rows of a finding name the same
object: kind, address and allocation site; and no "unknown" row for bytes a
listed heap block held), the top-level keys with schema_version 5, and
what every report adds up to (report_identities.py). Prints one line per problem and exits 1, or prints "ok".
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_identities  # noqa: E402

TOP_KEYS = {"tool", "schema_version", "pid", "executable", "sampled", "sample_period",
            "transfer_ns", "min_share", "report_threshold", "tracked_lines",
            "untracked_lines", "handed_over_lines", "suppressed_findings",
            "suppressed_structs", "findings", "structs", "run_cpu_seconds",
            "process_cpu_seconds", "tool_cpu_seconds", "expected_gain"}
FINDING_KEYS = {"kind", "line_address", "line_size", "invalidations",
                "observed_invalidations", "estimated_parallel_invalidations",
                "true_sharing_invalidations", "false_sharing_invalidations",
                "impact", "threads", "object", "objects", "accesses", "suggestion"}
ACCESS_KEYS = {"thread", "offset", "length", "object_offset", "reads", "writes"}
IMPACT_KEYS = {"estimated_seconds", "share", "wall_seconds", "low_share", "high_share",
               "low_seconds", "high_seconds", "conditional", "hypothetical",
               "run_seconds", "at_bound", "bound_share", "bound_loop_work", "bound_locked",
               "transfer_ns",
               "threads_seconds"}


def object_matches(obj, spec):
    kind, _, value = spec.partition("=")
    if obj["kind"] != kind:
        return False
    if kind == "global":
        return obj.get("name") == value
    if kind == "heap":
        return any((f.get("file") or "").endswith(value) for f in obj.get("alloc_stack", []))
    if kind == "stack":
        return str(obj.get("thread")) == value
    return True


def main():
    p = argparse.ArgumentParser()
    p.add_argument("report")
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--only", action="store_true")
    p.add_argument("--none", action="store_true")
    p.add_argument("--threads")
    p.add_argument("--bytes", action="append", default=[])
    p.add_argument("--max-invalidations", type=int)
    p.add_argument("--min-invalidations", type=int)
    p.add_argument("--min-objects", type=int)
    p.add_argument("--objects", type=int)
    p.add_argument("--max-share", type=float,
                   help="the expected findings' impact.share is at most this")
    p.add_argument("--min-share", type=float,
                   help="the expected findings' impact.share is at least this")
    p.add_argument("--max-threads-share", type=float,
                   help="the expected findings' impact.estimated_seconds are at most this "
                   "share of their impact.threads_seconds")
    p.add_argument("--bound-share", type=float,
                   help="the expected findings' impact.bound_share is this (to 0.001): the "
                   "most of its time a thread is claimed to lose to the line")
    p.add_argument("--at-bound", choices=("yes", "no"),
                   help="the expected findings' impact.at_bound is this: the claim is "
                   "(or is not) the bound of what a thread loses to one line")
    p.add_argument("--suggestion", action="append", default=[],
                   help="text the expected findings' suggestion contains")
    p.add_argument("--no-suggestion", action="append", default=[],
                   help="text the expected findings' suggestion must not contain")
    a = p.parse_args()
    problems = []
    try:
        report = json.load(open(a.report))
    except (OSError, ValueError) as e:
        print("check_findings: %s: not a JSON report: %s" % (a.report, e))
        return 1
    if report.get("tool") != "cache-frag":
        problems.append("not a cache-frag report")
    missing = TOP_KEYS - report.keys()
    if missing:
        problems.append("report lacks %s" % sorted(missing))
    if report.get("schema_version") != 5:
        problems.append("schema_version %r, expected 5" % report.get("schema_version"))
    findings = report.get("findings", [])
    if not missing:
        problems += report_identities.json_problems(report)
    for i, f in enumerate(findings):
        missing = FINDING_KEYS - f.keys()
        if missing:
            problems.append("finding %d lacks %s" % (i, sorted(missing)))
            continue
        if IMPACT_KEYS - f["impact"].keys():
            problems.append("finding %d impact lacks %s" % (i, sorted(IMPACT_KEYS - f["impact"].keys())))
        else:
            # Bounds that hold by construction: what a fix saves is at most the
            # involved threads' time, which is at most the run's.
            impact = f["impact"]
            run = report.get("run_cpu_seconds", 0)
            if not (0 <= impact["wall_seconds"] <= impact["estimated_seconds"] + 1e-9
                    <= impact["threads_seconds"] + 2e-9 <= max(run, impact["threads_seconds"]) + 3e-9):
                problems.append("finding %d: not wall <= lost <= threads' time <= run: %r, run %r"
                                % (i, impact, run))
            if not 0 <= impact["share"] <= 1:
                problems.append("finding %d: share %r" % (i, impact["share"]))
        for acc in f["accesses"]:
            if ACCESS_KEYS - acc.keys():
                problems.append("finding %d access lacks %s" % (i, sorted(ACCESS_KEYS - acc.keys())))
        if not 0 <= f["impact"]["share"] <= 1:
            problems.append("finding %d share %s out of [0, 1]" % (i, f["impact"]["share"]))
        # Heap blocks of different sites may take turns at one address.
        rows = [(o["kind"], o.get("address"), o.get("thread"),
                 tuple((fr.get("file"), fr.get("line")) for fr in o.get("alloc_stack", [])[:1]))
                for o in f["objects"]]
        if len(set(rows)) != len(rows):
            problems.append("finding %d names an object twice: %s" % (i, rows))
        blocks = [(o["address"], o["size"]) for o in f["objects"]
                  if o["kind"] == "heap" and o.get("size")]
        for o in f["objects"]:
            if o["kind"] == "unknown" and any(a <= o["address"] < a + n for a, n in blocks):
                problems.append("finding %d: unknown bytes at %d in a listed heap block"
                                % (i, o["address"]))
        writes = sum(acc["writes"] for acc in f["accesses"])
        for key in ("observed_invalidations", "estimated_parallel_invalidations"):
            if f[key] is not None and f[key] > writes + 1:
                problems.append("finding %d: %s %d exceeds the %d writes it counts"
                                % (i, key, f[key], writes))
    used = set()
    for spec in a.expect:
        kind, _, obj = spec.partition(":")
        match = next((i for i, f in enumerate(findings) if i not in used and f["kind"] == kind
                      and any(object_matches(o, obj) for o in f["objects"])), None)
        if match is None:
            problems.append("no %s finding on %s; findings: %s" % (kind, obj, [
                (f["kind"], [(o["kind"], o.get("name")) for o in f["objects"]]) for f in findings]))
            continue
        used.add(match)
        f = findings[match]
        if a.threads is not None:
            want = sorted(int(t) for t in a.threads.split(","))
            if sorted(f["threads"]) != want:
                problems.append("%s: threads %s, expected %s" % (spec, f["threads"], want))
        if a.max_share is not None and f["impact"]["share"] > a.max_share:
            problems.append("%s: share %r > %r" % (spec, f["impact"]["share"], a.max_share))
        if (a.max_threads_share is not None and f["impact"]["estimated_seconds"] >
                a.max_threads_share * f["impact"]["threads_seconds"] + 1e-9):
            problems.append("%s: %r s estimated, over %r of the threads' %r s" % (
                spec, f["impact"]["estimated_seconds"], a.max_threads_share,
                f["impact"]["threads_seconds"]))
        if a.objects is not None and len(f["objects"]) != a.objects:
            problems.append("%s: %d object rows, expected %d: %s" % (
                spec, len(f["objects"]), a.objects, [(o["kind"], o.get("address"))
                                                      for o in f["objects"]]))
        if a.min_share is not None and f["impact"]["share"] < a.min_share:
            problems.append("%s: share %r < %r" % (spec, f["impact"]["share"], a.min_share))
        if a.bound_share is not None and abs(f["impact"].get("bound_share", -1) - a.bound_share) > 0.001:
            problems.append("%s: impact.bound_share %r, expected %r" % (
                spec, f["impact"].get("bound_share"), a.bound_share))
        if a.at_bound is not None and f["impact"].get("at_bound") != (a.at_bound == "yes"):
            problems.append("%s: impact.at_bound %r, expected %s" % (
                spec, f["impact"].get("at_bound"), a.at_bound))
        for text in a.suggestion:
            if text not in f["suggestion"]:
                problems.append("%s: suggestion lacks %r: %r" % (spec, text, f["suggestion"]))
        for text in a.no_suggestion:
            if text in f["suggestion"]:
                problems.append("%s: suggestion says %r: %r" % (spec, text, f["suggestion"]))
        if a.max_invalidations is not None and f["invalidations"] > a.max_invalidations:
            problems.append("%s: %d invalidations > %d" % (spec, f["invalidations"], a.max_invalidations))
        if a.min_objects is not None:
            names = {(o["kind"], o.get("name"), tuple((fr.get("file"), fr.get("line"))
                                                     for fr in o.get("alloc_stack", [])[:1]))
                     for o in f["objects"]}
            if len(names) < a.min_objects:
                problems.append("%s: %d objects named, expected at least %d: %s"
                                % (spec, len(names), a.min_objects, sorted(names)))
        if a.min_invalidations is not None and f["invalidations"] < a.min_invalidations:
            problems.append("%s: %d invalidations < %d" % (spec, f["invalidations"], a.min_invalidations))
    if a.bytes:
        first = findings[min(used)] if used else None
        for spec in a.bytes:
            t, off, length = (int(x) for x in spec.split(":"))
            if first is None or not any(acc["thread"] == t and acc["offset"] == off and
                                        acc["length"] == length for acc in first["accesses"]):
                problems.append("no access of T%d to bytes +%d..%d: %s" % (
                    t, off, off + length - 1,
                    first and [(x["thread"], x["offset"], x["length"]) for x in first["accesses"]]))
    if a.only and len(used) != len(findings):
        problems.append("unexpected findings: %s" % [(f["kind"], f["object"]) for i, f in
                                                     enumerate(findings) if i not in used])
    if a.none and findings:
        problems.append("expected no finding, got %s" % [(f["kind"], f["object"], f["invalidations"],
                                                          f["impact"]["share"]) for f in findings])
    for line in problems:
        print("check_findings: %s: %s" % (a.report, line))
    if not problems:
        print("ok")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
