"""Checks that a working-set report and its page put everything on one time
axis: the sampler's real clock.

usage: check_time_axis.py PROGRAM_OUTPUT PAGE.html REPORT.json

The report (parsed here, independently of efsan-view):
  - every level's snapshots carry the interval they cover (start_us, end_us),
    one after the other without a gap or an overlap from the start of the
    run, and a level's boundaries are level 0's;
  - no snapshot of any level and no timeline entry covers a phase boundary:
    each phase ends where snapshots of every level end;
  - the timeline's entries cover the run from 0 to the report (run_ms);
  - each level-0 snapshot longer than one and a half periods lies in a span
    of sampler_behind, and their count is sampler_behind_samples;
  - each phase lasted at least as long as the program measured it itself
    (PROGRAM_OUTPUT: lines "PHASE <name> <ms>"; its clock reads are inside
    the phase's) and at most half as long again.
The page, in headless Chromium: in the level-0 chart and in the chart of
data structures over time, the time axis's own tick labels give the scale;
by it every phase marker sits within one level-0 period of its phase's
start in the phase table, inside the plot; every snapshot's point sits at
the middle of the interval its snapshot covers (within a pixel) and says so
(data-start-ms, data-end-ms); every span where the sampler fell behind is
hatched and named in the text. Prints "time axis ok: ..." lines, or the
problems and exits 1.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402
from reports import load  # noqa: E402

FACTS = r"""
const nums = (e, names) => Object.fromEntries(names.map(n => [n, Number(e.getAttribute(n))]));
function chart(svg) {
  const bg = svg.querySelector('rect.plot-bg');
  return {
    plot: [Number(bg.getAttribute('x')), Number(bg.getAttribute('x')) + Number(bg.getAttribute('width'))],
    // The time axis's labels: centred under the plot.
    ticks: [...svg.querySelectorAll('text.tick[text-anchor="middle"]')].map(t => [Number(t.getAttribute('x')), t.textContent]),
    markers: [...svg.querySelectorAll('g.phase-marker')].map(g => [g.dataset.name, Number(g.querySelector('line').getAttribute('x1'))]),
    points: [...svg.querySelectorAll('circle.snap')].map(c => [Number(c.getAttribute('cx')), Number(c.dataset.startMs),
                                                              Number(c.dataset.endMs), Number(c.dataset.lines)]),
    behind: [...svg.querySelectorAll('rect.sampler-behind')].map(r => [Number(r.dataset.startMs), Number(r.dataset.endMs)]),
  };
}
return {
  level0: [...document.querySelectorAll('svg.timeline[data-level="0"][data-scale="linear"]')].map(chart),
  structures: [...document.querySelectorAll('svg.structures-chart')].map(chart),
  phases: [...document.querySelectorAll('tr.phase')].map(r => [r.dataset.name, r.cells[1].textContent]),
  behindNote: [...document.querySelectorAll('p.sampler-behind-note')].map(p => p.textContent),
};
"""


def tick_ms(text):
    m = re.match(r"^([0-9.]+) (ms|s)$", text.strip())
    if not m:
        return None
    return float(m.group(1)) * (1000.0 if m.group(2) == "s" else 1.0)


def scale_of(ticks):
    """(ms_of(x), px per ms) from the axis's labels: a least-squares line."""
    pts = [(x, tick_ms(t)) for x, t in ticks if tick_ms(t) is not None]
    if len(pts) < 2:
        return None, None
    n = float(len(pts))
    mx = sum(x for x, _ in pts) / n
    mt = sum(t for _, t in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    slope = sum((x - mx) * (t - mt) for x, t in pts) / sxx  # ms per px
    return (lambda x: mt + slope * (x - mx)), 1.0 / slope


class Checker:
    def __init__(self):
        self.problems = []
        self.notes = []

    def expect(self, ok, what):
        if not ok:
            self.problems.append(what)
        return ok


def check_report(c, r, measured):
    period_us = r["sample_period_ms"] * 1000
    ends0 = set()
    for level in r["levels"]:
        lines, starts, ends = level["lines"], level.get("start_us"), level.get("end_us")
        where = "level %d" % level["level"]
        if not c.expect(isinstance(starts, list) and isinstance(ends, list) and
                        len(starts) == len(ends) == len(lines), "%s: no interval per snapshot" % where):
            continue
        if not lines:
            continue
        if level["taken"] == len(lines):
            c.expect(starts[0] == 0, "%s: the first snapshot starts at %d us" % (where, starts[0]))
        for i in range(len(lines)):
            c.expect(ends[i] >= starts[i], "%s: snapshot %d ends before it starts" % (where, i))
            if i:
                c.expect(starts[i] == ends[i - 1], "%s: snapshot %d starts at %d us, the one before ends at %d us"
                         % (where, i, starts[i], ends[i - 1]))
        if level["level"] == 0:
            ends0 = set(ends)
            long_ones = [(a, b) for a, b in zip(starts, ends) if b - a > period_us * 3 // 2]
            spans = [(round(b["start_ms"] * 1000), round(b["end_ms"] * 1000)) for b in r.get("sampler_behind", [])]
            for a, b in long_ones:
                c.expect(any(sa <= a + 1 and b <= sb + 1 for sa, sb in spans),
                         "a level-0 snapshot of %d-%d us is in no sampler_behind span %s" % (a, b, spans))
            if level["taken"] == len(lines):
                c.expect(r.get("sampler_behind_samples") == len(long_ones),
                         "sampler_behind_samples %s, %d long snapshots" % (r.get("sampler_behind_samples"), len(long_ones)))
        else:
            c.expect(all(e in ends0 for e in ends), "%s: a boundary that is not level 0's" % where)
    phases = r["phases"]
    tl = r["timeline"]
    c.expect(tl["start_us"][0] == 0 and all(tl["start_us"][i] == tl["end_us"][i - 1] for i in range(1, len(tl["end_us"]))),
             "timeline entries %s - %s do not follow each other from 0" % (tl["start_us"], tl["end_us"]))
    c.expect(abs(tl["end_us"][-1] - r.get("run_ms", -1e9) * 1000) <= 1000,
             "the timeline ends at %d us, the report at %s ms" % (tl["end_us"][-1], r.get("run_ms")))
    for p in phases:
        end = round(p["end_ms"] * 1000)
        c.expect(any(abs(e - end) <= 1 for e in ends0), "phase %s ends at %d us, at no level-0 boundary" % (p["name"], end))
        for level in r["levels"]:
            for a, b in zip(level.get("start_us", []), level.get("end_us", [])):
                c.expect(not (a + 1 < end < b - 1), "level %d snapshot %d-%d us covers the end of phase %s (%d us)"
                         % (level["level"], a, b, p["name"], end))
        for a, b in zip(tl["start_us"], tl["end_us"]):
            c.expect(not (a + 1 < end < b - 1), "timeline entry %d-%d us covers the end of phase %s" % (a, b, p["name"]))
        got = p["end_ms"] - p["start_ms"]
        own = measured.get(p["name"])
        if c.expect(own is not None, "the program printed no length for phase %s" % p["name"]):
            c.expect(own - 0.002 <= got <= own * 1.5, "phase %s: %.3f ms in the report, %.3f ms measured by the program"
                     % (p["name"], got, own))
    c.notes.append("report: %d levels, %d phases, %d timeline entries, %d samples behind"
                   % (sum(1 for l in r["levels"] if l["lines"]), len(phases), len(tl["lines"]),
                      r.get("sampler_behind_samples", -1)))


def check_chart(c, name, ch, r, with_points):
    ms_of, px_per_ms = scale_of(ch["ticks"])
    if not c.expect(ms_of is not None, "%s: no time axis labels %s" % (name, ch["ticks"])):
        return
    period = r["sample_period_ms"]
    lo, hi = ch["plot"]
    for pname, x in ch["markers"]:
        phase = next((p for p in r["phases"] if p["name"] == pname), None)
        if not c.expect(phase is not None, "%s: a marker for phase %r not in the report" % (name, pname)):
            continue
        c.expect(lo - 0.5 <= x <= hi + 0.5, "%s: phase %s's marker at x=%s, outside the plot %s" % (name, pname, x, ch["plot"]))
        c.expect(abs(ms_of(x) - phase["start_ms"]) <= period,
                 "%s: phase %s's marker at %.1f ms on the axis, its start %.3f ms" % (name, pname, ms_of(x), phase["start_ms"]))
    c.expect(sorted(m for m, _ in ch["markers"]) == sorted(p["name"] for p in r["phases"]),
             "%s: markers %s for phases %s" % (name, ch["markers"], [p["name"] for p in r["phases"]]))
    if with_points:
        # As drawn: no point's interval covers a phase's end.
        for x, a, b, n in ch["points"]:
            if b is None or b != b:  # no data-end-ms: the nominal period
                b = a + period
            for p in r["phases"]:
                c.expect(not (a + 0.001 < p["end_ms"] < b - 0.001),
                         "%s: the point of %s lines drawn over %.3f-%.3f ms covers the end of phase %s (%.3f ms)"
                         % (name, n, a, b, p["name"], p["end_ms"]))
        level = r["levels"][0]
        want = [(a / 1000.0, b / 1000.0, n) for a, b, n in zip(level.get("start_us", []), level.get("end_us", []), level["lines"])]
        got = [(a, b, n) for _, a, b, n in ch["points"]]
        c.expect(len(got) == len(want) and all(g[1] is not None and abs(g[0] - w[0]) < 0.01 and abs(g[1] - w[1]) < 0.01 and g[2] == w[2]
                                               for g, w in zip(got, want)),
                 "%s: points %s, snapshots %s" % (name, got[:5], want[:5]))
        for x, a, b, _ in ch["points"]:
            b = a if b is None else b
            c.expect(abs(x - (lo + ((a + b) / 2 - ms_of(lo)) * px_per_ms)) <= 1.0,
                     "%s: the point of %.3f-%.3f ms at x=%s, not at its middle" % (name, a, b, x))
        spans = [[b["start_ms"], b["end_ms"]] for b in r.get("sampler_behind", [])]
        c.expect(sorted(ch["behind"]) == sorted(spans), "%s: hatched %s, sampler_behind %s" % (name, ch["behind"], spans))
    c.notes.append("%s: %d markers, %d points on the axis" % (name, len(ch["markers"]), len(ch["points"])))


def main(output, page, report_path):
    measured = {}
    for line in open(output):
        m = re.match(r"^PHASE (.+) ([0-9.]+)$", line.strip())
        if m:
            measured[m.group(1)] = float(m.group(2))
    reports = load(report_path)
    c = Checker()
    c.expect(len(reports) == 1, "%d reports" % len(reports))
    r = reports[0]
    check_report(c, r, measured)
    with Browser() as b:
        b.open(page)
        facts = b.run(FACTS)
    if c.expect(len(facts["level0"]) == 1, "%d level-0 charts" % len(facts["level0"])):
        check_chart(c, "level 0", facts["level0"][0], r, True)
    if c.expect(len(facts["structures"]) == 1, "%d structure charts" % len(facts["structures"])):
        check_chart(c, "structures", facts["structures"][0], r, False)
    c.expect([n for n, _ in facts["phases"]] == [p["name"] for p in r["phases"]], "phase table %s" % facts["phases"])
    if r.get("sampler_behind_samples", 1):
        c.expect(len(facts["behindNote"]) == 1 and "fell behind" in facts["behindNote"][0],
                 "the page does not say where the sampler fell behind: %s" % facts["behindNote"])
    for p in c.problems:
        print("check_time_axis: " + p)
    if c.problems:
        return 1
    for n in c.notes:
        print("time axis ok: " + n)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
