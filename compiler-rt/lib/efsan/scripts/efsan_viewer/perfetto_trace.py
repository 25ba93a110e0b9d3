"""efsan-view --perfetto: working-set reports as Chrome trace events.

Owns: the trace-event JSON that ui.perfetto.dev and chrome://tracing open:
a process per report, a counter track per level with snapshots, the phases
as instant events and slices, events sorted so that no track goes back in
time; the refusal of a cache-frag report (it has no time axis).
Does not own: the reading of a level's snapshots and the phases' times
(working_set_page.py, shared with the page), nor writing the file and the
notes on stderr (efsan_view.py).
"""

from .reports import PROG, InputError, _where
from .formatting import fmt_ms
from .working_set_page import phase_times, level_series, level_spans


def perfetto_trace(reports, sources):
    events = []
    seen_pids = {}
    notes = []
    for r, source in zip(reports, sources):
        if r["tool"] != "working-set":
            raise InputError("%s: a cache-frag report has no time axis; --perfetto takes working-set reports"
                             % _where(source))
        n = seen_pids.get(r["pid"], 0) + 1
        seen_pids[r["pid"]] = n
        suffix = "" if n == 1 else " (report %d)" % n
        pid = r["pid"]
        lb = r["cache_line_size"]
        events.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "ts": 0,
                       "args": {"name": "efsan working set: %s (pid %d)" % (r["executable"], pid)}})
        for level in r["levels"]:
            first, period, values = level_series(level)
            name = "working set L%d, %s snapshots%s" % (level["level"], fmt_ms(period), suffix)
            # A counter holds its value from its event on: each snapshot's
            # at the start of the interval it covers.
            for (t0, _), v in zip(level_spans(level), values):
                events.append({"ph": "C", "name": name, "pid": pid, "tid": 0,
                               "ts": int(round(t0 * 1000)),
                               "args": {"lines": v, "bytes": v * lb}})
        timed = phase_times(r)
        if timed:
            events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": 1, "ts": 0,
                           "args": {"name": "phases"}})
        for p, start, end in timed:
            name = str(p.get("name") or "(unnamed)") + suffix
            events.append({"ph": "i", "s": "p", "name": "phase " + name, "pid": pid, "tid": 1,
                           "ts": int(start * 1000), "args": {"lines": p["lines"], "bytes": p["lines"] * lb}})
            if end is not None and end >= start:
                events.append({"ph": "X", "name": name, "pid": pid, "tid": 1, "ts": int(start * 1000),
                               "dur": int((end - start) * 1000), "args": {"lines": p["lines"], "bytes": p["lines"] * lb}})
        if r.get("phases") and not timed:
            notes.append("pid %d: its phases carry no start times, so the trace has no phase events" % pid)
    # Sorted by time, metadata first: every track's timestamps then increase.
    events.sort(key=lambda e: (e["ph"] != "M", e["ts"]))
    meta = {"generator": PROG, "reports": [{"pid": r["pid"], "executable": r["executable"],
                                              "total_lines": r["total_lines"],
                                              "caches": r.get("caches") or []} for r in reports]}
    return {"traceEvents": events, "displayTimeUnit": "ms", "otherData": meta}, notes
