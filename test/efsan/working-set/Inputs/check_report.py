"""Checks a working-set JSON report against expressions.

usage: check_report.py LOG_PREFIX [--count N] [--vars FILE] EXPR...

Reads every LOG_PREFIX.<pid> file (the reports of log_path=LOG_PREFIX), parses
each as one JSON report, and evaluates each EXPR in every report, with the
report's top-level keys, the region names (heap, globals, stack, other),
`level0` (the level-0 series), `levels`, `filename_pid` (the PID in the file
name) and `reports` (all parsed reports) as variables, and two helpers for the
`objects` list: reused(function) is the reused lines of that heap object,
series(function) the timeline's series of the heap structure whose site is in
that function (series(kind=K, name=N) of another), site(function) is the lines of the heap object whose
allocation site (its first frame outside the allocation wrappers) is in that
function (None if absent) and named(kind,
name) is the object of that kind and name (None if absent), part(name) the
lines of the object of the range the program named so (None if absent). window(n, level,
key='lines') is that level's `key` array (lines, std_error, sampled_fraction)
for the snapshots whose periods all lie within samples WINDOW<n>_LO to
WINDOW<n>_HI (from --vars, sample numbers from 1; a snapshot's samples are
the level-0 snapshots within its interval, start_us to end_us). Exits 1 with the
failing expression and the report if any is false. --vars FILE adds the
NAME=INTEGER lines of FILE as variables (answers the program computed). Always required of every
report: schema_version 5, a string executable, and the pid of its file name.
"""
import glob
import json
import sys


def site_frame(stack):
    """The allocation site: the first frame outside the allocation wrappers."""
    return next((f for f in stack if not f.get("allocation_wrapper")), stack[0])


def main():
    args = sys.argv[1:]
    prefix = args.pop(0)
    expected_count = None
    if args and args[0] == "--count":
        expected_count = int(args[1])
        args = args[2:]
    known = {}
    if args and args[0] == "--vars":
        with open(args[1]) as f:
            for line in f:
                name, _, value = line.strip().partition("=")
                if name:
                    known[name] = int(value)
        args = args[2:]
    paths = sorted(p for p in glob.glob(prefix + ".*") if p[len(prefix) + 1:].isdigit())
    if expected_count is not None and len(paths) != expected_count:
        sys.exit("expected %d reports, found %d: %s" % (expected_count, len(paths), paths))
    if not paths:
        sys.exit("no report files %s.*" % prefix)
    reports = []
    for path in paths:
        with open(path) as f:
            reports.append((path, f.read()))
    parsed = [json.loads(text) for _, text in reports]
    for (path, text), report in zip(reports, parsed):
        # Every report identifies itself (docs/JSONSchema.md).
        if report.get("schema_version") != 5 or not isinstance(report.get("executable"), str) \
                or report.get("pid") != int(path.rsplit(".", 1)[1]):
            sys.exit("%s: schema_version, pid or executable missing or wrong\n%s" % (path, text))
        env = dict(known)
        env.update(report)
        env.update(report["regions"])
        env["level0"] = report["levels"][0]["lines"]
        env["filename_pid"] = int(path.rsplit(".", 1)[1])
        env["reports"] = parsed
        objects = report.get("objects", [])
        env["site"] = lambda function, objects=objects: next(
            (o["lines"] for o in objects if o["kind"] == "heap" and o["alloc_stack"]
             and site_frame(o["alloc_stack"])["function"] == function), None)
        env["named"] = lambda kind, name, objects=objects: next(
            (o for o in objects if o["kind"] == kind and o["name"] == name), None)
        env["part"] = lambda name, objects=objects: next(
            (o["lines"] for o in objects if o.get("named_range") == name), None)
        def samples_of(level, report=report):
            """(first, last) sample number of each kept snapshot of a level:
            those of the level-0 snapshots within its interval (a phase
            boundary ends every level's snapshot early)."""
            series = report["levels"][level]
            zero = report["levels"][0]
            first0 = zero["taken"] - len(zero["lines"])
            if "start_us" not in series:
                period = 1 << (level * report["snapshot_step"])
                first = series["taken"] - len(series["lines"])
                return [(j * period + 1, (j + 1) * period) for j in range(first, series["taken"])]
            out = []
            for a, b in zip(series["start_us"], series["end_us"]):
                inside = [first0 + j + 1 for j, (c, d) in enumerate(zip(zero["start_us"], zero["end_us"]))
                          if c >= a and d <= b]
                out.append((min(inside), max(inside)) if inside else (0, 0))
            return out
        def window(n, level, key="lines", report=report, env=env):
            series = report["levels"][level]
            lo, hi = env["WINDOW%d_LO" % n], env["WINDOW%d_HI" % n]
            return [value for (a, b), value in zip(samples_of(level), series[key])
                    if a >= lo and b <= hi and a > 0]
        env["window"] = window
        # The timeline: the series of a heap structure by its site's
        # function (a list of zeros if absent), of a structure by kind and
        # name, and an object's reused lines.
        timeline = report.get("timeline") or {}
        def series(function=None, kind=None, name=None, timeline=timeline):
            for s, values in zip(timeline.get("structures", []),
                                 timeline.get("by_structure", [])):
                if function is not None and s["kind"] == "heap" and s["alloc_stack"] \
                        and site_frame(s["alloc_stack"])["function"] == function:
                    return values
                if function is None and s["kind"] == kind and s["name"] == name:
                    return values
            return [0] * len(timeline.get("lines", []))
        env["series"] = series
        env["reused"] = lambda function, objects=objects: next(
            (o["reused_lines"] for o in objects if o["kind"] == "heap" and o["alloc_stack"]
             and site_frame(o["alloc_stack"])["function"] == function), None)
        for expr in args:
            # One namespace, so that generator expressions see the variables.
            names = {"any": any, "all": all, "len": len, "max": max, "min": min,
                     "sum": sum, "range": range, "sorted": sorted, "abs": abs,
                     "zip": zip}
            names.update(env)
            if not eval(expr, names):
                sys.exit("%s: false: %s\n%s" % (path, expr, text))
    print("ok %d report(s)" % len(paths))


if __name__ == "__main__":
    main()
