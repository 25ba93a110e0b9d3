"""Checks a trace written by `efsan-view --perfetto` against the Chrome
trace-event format and against the working-set reports it was made from.

usage: check_trace.py TRACE.json REPORT.json [REPORT.json ...]

Format: one JSON object with a "traceEvents" list; every event has "ph",
"name", "pid" and a number "ts" (microseconds, >= 0); "X" events have a
"dur" >= 0, "C" events an "args" object of numbers, "i" events a scope "s"
of g, p or t; on every track (a counter's pid and name; a thread's pid and
tid) the timestamps never go back, and a counter's strictly increase.
Content: every level with snapshots is a counter whose "lines" values are
the report's, each at the start of the interval its snapshot covers
(start_us; one period apart in a report without them); every phase with a start time
is an instant event there; every process is named. Prints "trace ok: ..."
or the problems and exits 1.
"""
import json
import sys

from reports import load as load_reports

PHASES = {"B", "E", "X", "i", "I", "C", "M", "b", "e", "n", "s", "t", "f", "P", "O", "N", "D"}


def main(trace_path, *report_paths):
    problems = []
    try:
        trace = json.load(open(trace_path))
    except ValueError as e:
        print("check_trace: not JSON: %s" % e)
        return 1
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(events, list) or not events:
        print("check_trace: no traceEvents list")
        return 1
    last_ts = {}
    counters = {}
    instants = []
    names = {}
    for i, e in enumerate(events):
        where = "event %d" % i
        if not isinstance(e, dict):
            problems.append("%s: not an object" % where)
            continue
        for key, types in (("ph", str), ("name", str), ("pid", int), ("ts", (int, float))):
            if not isinstance(e.get(key), types) or isinstance(e.get(key), bool):
                problems.append("%s: key %r missing or of the wrong type: %r" % (where, key, e.get(key)))
        ph = e.get("ph")
        if ph not in PHASES:
            problems.append("%s: unknown ph %r" % (where, ph))
            continue
        if isinstance(e.get("ts"), (int, float)) and e["ts"] < 0:
            problems.append("%s: negative ts" % where)
        if ph == "M":
            if e.get("name") == "process_name":
                names[e.get("pid")] = (e.get("args") or {}).get("name")
            continue
        if ph == "X" and not (isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0):
            problems.append("%s: X event without a dur >= 0" % where)
        if ph in ("i", "I") and e.get("s", "t") not in ("g", "p", "t"):
            problems.append("%s: instant event scope %r" % (where, e.get("s")))
        if ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args or \
                    not all(isinstance(v, (int, float)) for v in args.values()):
                problems.append("%s: counter args %r" % (where, args))
                continue
            track = ("C", e["pid"], e["name"])
            if track in last_ts and e["ts"] <= last_ts[track]:
                problems.append("%s: counter %r goes from ts %s to %s" % (where, e["name"], last_ts[track], e["ts"]))
            counters.setdefault((e["pid"], e["name"]), []).append((e["ts"], args))
        else:
            track = ("T", e["pid"], e.get("tid", 0))
            if track in last_ts and e["ts"] < last_ts[track]:
                problems.append("%s: track %s goes back from ts %s to %s" % (where, track, last_ts[track], e["ts"]))
            if ph in ("i", "I"):
                instants.append(e)
        last_ts[track] = e["ts"]
    n_levels = n_phases = 0
    reports = [r for p in report_paths for r in load_reports(p)]
    for r in reports:
        pid = r["pid"]
        if not names.get(pid):
            problems.append("pid %d: no process_name" % pid)
        for level in r["levels"]:
            if not level["lines"]:
                continue
            n_levels += 1
            tracks = [v for (p, n), v in counters.items() if p == pid and ("L%d," % level["level"]) in n]
            if len(tracks) != 1:
                problems.append("pid %d level %d: %d counter tracks" % (pid, level["level"], len(tracks)))
                continue
            got = [a["lines"] for _, a in tracks[0]]
            if got != level["lines"]:
                problems.append("pid %d level %d: counter %s, report %s" % (pid, level["level"], got[:6], level["lines"][:6]))
            ts = [t for t, _ in tracks[0]]
            # Each snapshot at the start of the interval it covers.
            first = level["taken"] - len(level["lines"])
            starts = level.get("start_us") or [(first + j) * level["period_ms"] * 1000
                                               for j in range(len(level["lines"]))]
            if ts != starts:
                problems.append("pid %d level %d: ts %s us, snapshots start at %s us"
                                % (pid, level["level"], ts[:6], starts[:6]))
        for phase in r.get("phases") or []:
            if "start_ms" not in phase:
                continue
            n_phases += 1
            if not any(e["pid"] == pid and e["name"] == "phase " + phase["name"] and
                       e["ts"] == phase["start_ms"] * 1000 for e in instants):
                problems.append("pid %d: no instant event for phase %s" % (pid, phase["name"]))
    for p in problems:
        print("check_trace: " + p)
    if problems:
        return 1
    print("trace ok: %d events, %d counter tracks, %d levels and %d phases of %d reports match"
          % (len(events), len(counters), n_levels, n_phases, len(reports)))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
