"""Opens a page written by efsan-view in headless Chromium and checks it
against the JSON reports it was made from.

usage: check_page.py PAGE.html PNG REPORT.json [REPORT.json ...]
       check_page.py --diff PAGE.html PNG BEFORE.json AFTER.json [--expect STATUS:TEXT ...]

The answers come from the reports themselves (parsed here, independently of
efsan-view): every working-set level with snapshots has a timeline whose
points carry the report's numbers, in order, in both the linear and the log
chart, and the scale switch shows one or the other; cache sizes are drawn as
lines; phases and data structures are there when the report has them (and,
in a diff, each structure's lines, reused and streamed in both runs, and both
runs' structure charts); every cache-frag finding has its line map with
each byte coloured by the threads the report says write it, ranked by
estimated cost, with its fix; every struct's fields with their counts;
in both, the names of the ranges the program named. The page must log
nothing to the console (no script error, no blocked fetch). A screenshot of
the whole page goes to PNG. Prints "page ok: ..." lines, or the problems and
exits 1.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402
from reports import load  # noqa: E402

FACTS = r"""
const vis = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
const txt = e => e ? e.textContent : '';
const nums = (list, key) => [...list].map(e => Number(e.dataset[key]));
function timeline(svg) {
  return {level: Number(svg.dataset.level), scale: svg.dataset.scale, visible: vis(svg),
          width: svg.getBoundingClientRect().width,
          before: nums(svg.querySelectorAll('.series-before circle.snap, .series-run circle.snap'), 'lines'),
          after: nums(svg.querySelectorAll('.series-after circle.snap'), 'lines'),
          titles: [...svg.querySelectorAll('circle.snap > title')].map(txt),
          pointsVisible: [...svg.querySelectorAll('circle.snap')].every(vis),
          caches: nums(svg.querySelectorAll('g.cache-line'), 'bytes'),
          above: txt(svg.querySelector('.caches-above')),
          phases: [...svg.querySelectorAll('g.phase-marker')].map(g => g.dataset.name),
          texts: [...svg.querySelectorAll('text')].map(txt)};
}
function section(s) {
  return {
    pid: Number(s.dataset.pid), tool: s.classList.contains('working-set') ? 'working-set' : 'cache-frag',
    text: s.innerText,
    cards: Object.fromEntries([...s.querySelectorAll('.card[data-key]')].map(c => [c.dataset.key, c.dataset.value || ''])),
    timelines: [...s.querySelectorAll('svg.timeline')].map(timeline),
    objects: [...s.querySelectorAll('svg.objects-chart')].slice(0, 1).flatMap(svg =>
        [...svg.querySelectorAll('g.object-bar')].map(g => ({kind: g.dataset.kind, lines: Number(g.dataset.lines),
                                                             visible: vis(g.querySelector('rect'))}))),
    phases: [...s.querySelectorAll('tr.phase')].map(r => ({name: r.dataset.name, lines: Number(r.dataset.lines)})),
    structureChart: [...s.querySelectorAll('svg.structures-chart')].map(svg => ({visible: vis(svg),
        bands: [...svg.querySelectorAll('g.structure-band')].map(g => ({index: g.dataset.index, name: g.dataset.name,
            steps: [...g.querySelectorAll('rect.band-step')].map(r => [Number(r.dataset.entry), Number(r.dataset.lines)])})),
        phases: [...svg.querySelectorAll('g.phase-marker')].map(g => g.dataset.name)})),
    reuse: [...s.querySelectorAll('table.reuse tr.reuse')].map(r => [r.dataset.name, Number(r.dataset.reused),
                                                                    Number(r.dataset.streamed)]),
    reuseTotal: [...s.querySelectorAll('p.reuse-total')].map(p => Number(p.dataset.reused)),
    findings: [...s.querySelectorAll('article.finding')].map(a => ({
        rank: Number(a.dataset.rank), kind: a.dataset.kind, invalidations: Number(a.dataset.invalidations),
        seconds: Number(a.dataset.seconds), text: a.innerText,
        mapVisible: vis(a.querySelector('svg.line-map')),
        size: Number(a.querySelector('svg.line-map').dataset.lineSize),
        bytes: [...a.querySelectorAll('svg.line-map rect.byte')].map(r => [Number(r.dataset.offset),
                  r.dataset.writers, r.dataset.readers, r.getAttribute('fill')])})),
    rankBars: [...s.querySelectorAll('svg.ranking g.rank-bar')].map(g => Number(g.dataset.seconds)),
    structs: [...s.querySelectorAll('div.struct')].map(d => ({name: d.dataset.struct,
        visible: vis(d.querySelector('svg.struct-map')),
        fields: [...d.querySelectorAll('g.field')].map(g => [g.dataset.name, Number(g.dataset.count), g.dataset.heat])})),
  };
}
return {
  title: document.title,
  sections: [...document.querySelectorAll('section.report')].map(section),
  diff: [...document.querySelectorAll('section.diff')].map(s => ({
      tool: s.classList.contains('working-set') ? 'working-set' : 'cache-frag', text: s.innerText,
      rows: [...s.querySelectorAll('table.diff-table tr[data-key]')].map(r => [r.dataset.key, r.dataset.before, r.dataset.after]),
      timelines: [...s.querySelectorAll('svg.timeline')].map(timeline),
      findings: [...s.querySelectorAll('article.finding-diff')].map(a => [a.dataset.status, a.dataset.title]),
      structures: [...s.querySelectorAll('table.structures tr[data-key]')].map(r => {
        const n = k => r.dataset[k] === undefined ? null : Number(r.dataset[k]);
        return {key: r.dataset.key, text: r.innerText,
                before: [n('before'), n('reusedBefore'), n('streamedBefore')],
                after: [n('after'), n('reusedAfter'), n('streamedAfter')]}; }),
      structureCharts: [...s.querySelectorAll('figure.structures')].map(f => ({run: f.dataset.run,
        visible: vis(f.querySelector('svg.structures-chart')),
        height: Number(f.querySelector('svg.structures-chart').dataset.yMax),
        bands: [...f.querySelectorAll('g.structure-band')].map(g => ({index: g.dataset.index, name: g.dataset.name,
            fill: g.querySelector('rect.band-step') ? g.querySelector('rect.band-step').getAttribute('fill') : null,
            steps: [...g.querySelectorAll('rect.band-step')].map(r => [Number(r.dataset.entry), Number(r.dataset.lines)])}))})),
  })),
  svgCount: document.querySelectorAll('svg').length,
  hasScaleSwitch: !!document.getElementById('log-scale'),
};
"""


def fmt_int(n):
    return "{:,}".format(n)


def round_3(n):
    """Three significant digits, rounded half up: how the report and the
    page print an estimate (docs/CacheFrag.md, "Figures")."""
    digits = len(str(n))
    if digits <= 3:
        return n
    scale = 10 ** (digits - 3)
    return (n + scale // 2) // scale * scale


def shown_invalidations(f):
    """The invalidations as printed: the model's estimate (a prediction, or
    more in parallel than observed) to 3 significant digits, a count whole."""
    obs = f.get("observed_invalidations")
    if not isinstance(obs, int) or f.get("estimated_parallel_invalidations", 0) > obs:
        return round_3(f["invalidations"])
    return f["invalidations"]


class Checker:
    def __init__(self):
        self.problems = []
        self.notes = []

    def expect(self, cond, what):
        if not cond:
            self.problems.append(what)
        return cond


def ranked(findings):
    return [f for _, f in sorted(enumerate(findings),
                                 key=lambda p: (bool(p[1]["impact"].get("conditional")),
                                                -p[1]["impact"]["estimated_seconds"], p[0]))]


def check_timelines(c, where, timelines, level, scale, lines, key="before"):
    charts = [t for t in timelines if t["level"] == level["level"] and t["scale"] == scale]
    if not c.expect(len(charts) == 1, "%s: level %d: %d %s timelines" % (where, level["level"], len(charts), scale)):
        return None
    t = charts[0]
    c.expect(t[key] == lines, "%s: level %d %s: points %s, report %s" % (where, level["level"], scale,
                                                                          t[key][:8], lines[:8]))
    for v in set(lines):
        c.expect(any(fmt_int(v) + " lines" in title for title in t["titles"]),
                 "%s: level %d: no point says %s lines" % (where, level["level"], fmt_int(v)))
    texts = " ".join(t["texts"])
    for label in ("lines (64-byte cache lines)", "bytes", "time since the sampler started"):
        c.expect(label in texts, "%s: level %d: axis label %r missing" % (where, level["level"], label))
    return t


def data_caches(report):
    return [x for x in report.get("caches") or [] if not str(x.get("type", "")).lower().startswith("instr")]


def check_working_set(c, r, s, switch):
    where = "pid %d" % r["pid"]
    c.expect(s["cards"].get("total-lines") == str(r["total_lines"]),
             "%s: total card %r, report %d" % (where, s["cards"].get("total-lines"), r["total_lines"]))
    c.expect(fmt_int(r["total_lines"]) in s["text"], "%s: total %s not on the page" % (where, fmt_int(r["total_lines"])))
    points = 0
    shown = [l for l in r["levels"] if l["lines"]]
    for level in shown:
        lin = check_timelines(c, where, s["timelines"], level, "linear", level["lines"])
        log = check_timelines(c, where, s["timelines"], level, "log", level["lines"])
        points += len(level["lines"])
        if lin and log:
            c.expect(lin["visible"] != log["visible"], "%s: level %d: linear %s, log %s visible"
                     % (where, level["level"], lin["visible"], log["visible"]))
            c.expect((lin if not switch else log)["pointsVisible"], "%s: level %d: points not drawn" % (where, level["level"]))
            c.expect(lin["width"] > 400 or not lin["visible"], "%s: level %d: chart %d px wide" % (where, level["level"], lin["width"]))
            for cache in data_caches(r):
                # The log chart holds every cache; the linear one names those above it.
                c.expect(cache["size_bytes"] in log["caches"], "%s: level %d: log chart lacks the L%d line"
                         % (where, level["level"], cache["level"]))
                c.expect(cache["size_bytes"] in lin["caches"] or ("L%d" % cache["level"]) in lin["above"],
                         "%s: level %d: linear chart neither draws nor names L%d" % (where, level["level"], cache["level"]))
            for p in r.get("phases") or []:
                if "start_ms" in p:
                    # The snapshots' own intervals; a report without them
                    # (an older runtime's) has snapshot j at j periods.
                    if "start_us" in level:
                        first, last = level["start_us"][0] / 1000.0, level["end_us"][-1] / 1000.0
                    else:
                        first = (level["taken"] - len(level["lines"])) * level["period_ms"]
                        last = level["taken"] * level["period_ms"]
                    if first <= p["start_ms"] <= last:
                        c.expect(p["name"] in lin["phases"], "%s: level %d: no marker for phase %s"
                                 % (where, level["level"], p["name"]))
    c.expect(len(s["timelines"]) == 2 * len(shown), "%s: %d timelines for %d levels with snapshots"
             % (where, len(s["timelines"]), len(shown)))
    objects = r.get("objects") or []
    # A range the program named is shown by its name where objects are.
    for o in objects:
        if o.get("named_range"):
            c.expect('"%s"' % o["named_range"] in s["text"],
                     "%s: named range %s not on the page" % (where, o["named_range"]))
    c.expect(sorted(o["lines"] for o in s["objects"]) == sorted(o["lines"] for o in objects),
             "%s: data structure bars %s, report %s" % (where, [o["lines"] for o in s["objects"]],
                                                       [o["lines"] for o in objects]))
    c.expect(all(o["visible"] for o in s["objects"]), "%s: a data structure bar is not drawn" % where)
    phases = r.get("phases") or []
    c.expect([(p["name"], p["lines"]) for p in s["phases"]] == [(p["name"], p["lines"]) for p in phases],
             "%s: phases %s, report %s" % (where, s["phases"], phases))
    steps = check_structures(c, where, r, s)
    c.notes.append("%s working-set: %d timelines, %d points, %d caches, %d phases, %d data structures, "
                   "%d steps of structures over time"
                   % (where, len(s["timelines"]), points, len(data_caches(r)), len(phases), len(objects), steps))


def check_structures(c, where, r, s):
    """The stacked chart of the timeline: a band per structure (and the rest)
    whose steps carry the report's lines, entry by entry; the reuse of each
    structure and of the total as in the report."""
    tl = r.get("timeline")
    if not tl or not tl.get("lines"):
        c.expect(not s["structureChart"], "%s: a structures chart without a timeline" % where)
        return 0
    if not c.expect(len(s["structureChart"]) == 1 and s["structureChart"][0]["visible"],
                    "%s: structures chart %s" % (where, s["structureChart"])):
        return 0
    chart = s["structureChart"][0]
    steps = check_bands(c, where, tl, chart["bands"])
    for p in r.get("phases") or []:
        c.expect(p["name"] in chart["phases"], "%s: no marker for phase %s on the structures chart" % (where, p["name"]))
    reused = [[o["reused_lines"], o["lines"] - o["reused_lines"]] for o in r.get("objects") or [] if "reused_lines" in o]
    c.expect([x[1:] for x in s["reuse"]] == reused, "%s: reuse rows %s, report %s" % (where, s["reuse"], reused))
    c.expect(s["reuseTotal"] == [r["reused_lines"]], "%s: reused total %s, report %s"
             % (where, s["reuseTotal"], r["reused_lines"]))
    return steps


def check_bands(c, where, tl, bands):
    """A band per structure of the timeline and one for the rest, whose steps
    carry the report's lines, entry by entry; returns the steps."""
    columns = list(tl["by_structure"]) + [tl["rest"]]
    c.expect(len(bands) == len(columns), "%s: %d bands for %d structures and the rest"
             % (where, len(bands), len(tl["structures"])))
    steps = 0
    for band, column in zip(bands, columns):
        want = [[i, v] for i, v in enumerate(column) if v > 0]
        c.expect(band["steps"] == want, "%s: band %s steps %s, report %s" % (where, band["name"], band["steps"], want))
        steps += len(band["steps"])
    for st, band in zip(tl["structures"], bands):
        c.expect(band["name"] == "%s %s" % (st["kind"], st["name"]), "%s: band %s for %s" % (where, band["name"], st))
    return steps


def check_diff_structures(c, d, before, after):
    """Each side's rows carry its report's listed structures: lines, reused
    and streamed (two structures of one name are one row: then the sums);
    both runs' charts have their timeline's bands, one colour per structure
    in both, on one scale."""
    for side, r in (("before", before), ("after", after)):
        objects = r.get("objects") or []
        got = [x[side] for x in d["structures"] if x[side][0] is not None]
        want = [[o["lines"], o.get("reused_lines"),
                 o["lines"] - o["reused_lines"] if "reused_lines" in o else None] for o in objects]
        if len(got) == len(want):
            c.expect(sorted(got, key=str) == sorted(want, key=str),
                     "diff %s structures %s, report %s" % (side, got, want))
        else:
            # Structures of one name are one row.
            c.expect(len(got) < len(want) and [sum(x[i] or 0 for x in got) for i in range(3)] ==
                     [sum(x[i] or 0 for x in want) for i in range(3)],
                     "diff %s structures %s, report %s" % (side, got, want))
        for x in d["structures"]:
            if x[side][0] is not None and x[side][1] is not None:
                c.expect("{:,} ({}%)".format(x[side][1], 100 * x[side][1] // x[side][0]) in x["text"],
                         "diff %s: row %s does not show its reuse %s" % (side, x["text"], x[side]))
    charts = {f["run"]: f for f in d["structureCharts"]}
    timelines = {side: r["timeline"] for side, r in (("before", before), ("after", after))
                 if isinstance(r.get("timeline"), dict) and r["timeline"].get("lines")}
    c.expect(sorted(charts) == sorted(timelines), "diff structure charts %s, timelines %s"
             % (sorted(charts), sorted(timelines)))
    colours = {}
    for side, tl in timelines.items():
        f = charts.get(side)
        if not f:
            continue
        c.expect(f["visible"], "diff %s structures chart not drawn" % side)
        check_bands(c, "diff " + side, tl, f["bands"])
        for b in f["bands"]:
            if b["fill"]:
                colours.setdefault(b["name"], set()).add(b["fill"])
    c.expect(all(len(v) == 1 for v in colours.values()), "diff: a structure in two colours: %s" % colours)
    heights = {f["height"] for f in charts.values()}
    c.expect(len(heights) <= 1, "diff: structure charts on scales %s" % heights)
    return len(d["structures"]), len(charts)


def check_cache_frag(c, r, s):
    where = "pid %d" % r["pid"]
    findings = ranked(r["findings"])
    # The headline is the program's expected gain (what fixing the findings
    # shown saves, at most the run), not a sum of per-line costs.
    # (A report from before the expected gain has none: the card says 0.)
    gain = r.get("expected_gain", {}).get("share", 0)
    card = s["cards"].get("expected-gain")
    c.expect(card is not None and abs(float(card) - gain) < 1e-9 and 0 <= gain <= 1,
             "%s: expected-gain card %r, report's expected_gain.share %r" % (where, card, gain))
    if findings and "expected_gain" in r:
        summed = sum(f.get("impact", {}).get("share", 0) for f in findings
                     if not f.get("impact", {}).get("conditional"))
        c.expect(gain <= summed + 1e-6,
                 "%s: expected gain %r exceeds the findings' shares summed (%r)" % (where, gain, summed))
    c.expect(len(s["findings"]) == len(findings), "%s: %d findings on the page, %d in the report"
             % (where, len(s["findings"]), len(findings)))
    # A profile with rounds in which a hammered line cost nothing: the page
    # says so, and which state the run met, exactly then.
    free = (r.get("machine_profile") or {}).get("rounds_without_cost", 0)
    says = "depends on the state it is in when the program runs" in s["text"]
    c.expect(says == bool(free), "%s: %d rounds without cost in the profile, the page %s the state decides"
             % (where, free, "says" if says else "does not say"))
    if free:
        c.expect("In %d of its machine profile's %d rounds" % (free, r["machine_profile"]["measurements"])
                 in s["text"], "%s: the rounds without cost not counted on the page" % where)
        rounds = r["machine_profile"].get("state_rounds", 0)
        state = ("this run met the state of %d of its rounds" % rounds if rounds
                 else "this run could not tell which state it met")
        c.expect(state in s["text"], "%s: the page does not say %r" % (where, state))
    # Portability notes are listed after the findings, apart, and are not
    # ranked among them.
    notes = sum(1 for f in findings if f.get("impact", {}).get("conditional"))
    c.expect(s["rankBars"] == sorted(s["rankBars"], reverse=True) and len(s["rankBars"]) == len(findings) - notes,
             "%s: ranking bars %s" % (where, s["rankBars"]))
    for rank, (f, a) in enumerate(zip(findings, s["findings"]), 1):
        w = "%s finding #%d" % (where, rank)
        c.expect(a["rank"] == rank and a["kind"] == f["kind"] and a["invalidations"] == f["invalidations"],
                 "%s: page has %s/%s, report %s/%s" % (w, a["kind"], a["invalidations"], f["kind"], f["invalidations"]))
        c.expect(fmt_int(shown_invalidations(f)) in a["text"],
                 "%s: %s invalidations not shown" % (w, fmt_int(shown_invalidations(f))))
        c.expect(a["mapVisible"], "%s: line map not drawn" % w)
        c.expect(a["size"] == f["line_size"] and len(a["bytes"]) == f["line_size"],
                 "%s: %d byte boxes for a %d-byte line" % (w, len(a["bytes"]), f["line_size"]))
        want = {}
        for rng in f["line_map"]:
            for b in range(rng["offset"], rng["offset"] + rng["length"]):
                want[b] = (" ".join(map(str, sorted(rng["writers"]))), " ".join(map(str, sorted(rng["readers"]))))
        got = {b[0]: (b[1], b[2]) for b in a["bytes"]}
        c.expect(got == want, "%s: byte writers/readers differ from the line map" % w)
        fills = {}
        for off, writers, _, fill in a["bytes"]:
            if writers and " " not in writers:
                fills.setdefault(writers, set()).add(fill)
        c.expect(all(len(v) == 1 for v in fills.values()) and
                 len({next(iter(v)) for v in fills.values()}) == len(fills),
                 "%s: one colour per writing thread expected, got %s" % (w, fills))
        # A thread that bumps an atomic is bounded by the profile's atomics.
        what = ("an atomic both threads bump" if f["impact"].get("bound_locked")
                else "one line")
        bound = ("this is the bound of what a thread loses to %s" % what) in a["text"]
        c.expect(bound == bool(f["impact"].get("at_bound")),
                 "%s: impact.at_bound %r, the page %s it" % (w, f["impact"].get("at_bound"),
                                                              "says" if bound else "does not say"))
        if bound:
            # The bound's figure: whole percents from 10%, tenths below.
            tenths = round(f["impact"]["bound_share"] * 1000)
            figure = ("%d%%" % round(tenths / 10) if tenths >= 100 else "%.1f%%" % (tenths / 10)) + \
                " of its time beside the other"
            c.expect(figure in a["text"], "%s: the bound's figure %r not on the page" % (w, figure))
            work = f["impact"].get("bound_loop_work")
            if work:
                loops = "for loops with %d instructions per write" % work
                c.expect(loops in a["text"], "%s: %r not on the page" % (w, loops))
        # Mapped memory the program named: the object is the range, and
        # the line map's bytes are offsets in it.
        shown = {'named range "%s"' % o["named_range"]["name"] for o in f.get("objects") or []
                 if isinstance(o.get("named_range"), dict) and o["kind"] not in ("heap", "global", "stack")}
        shown |= {'"%s" +' % m["named_range"]["name"] for m in f["line_map"]
                  if isinstance(m.get("named_range"), dict) and not m.get("object")}
        for text in sorted(shown):
            c.expect(text in a["text"], "%s: %s not shown" % (w, text))
        fix = (f.get("fix") or {}).get("text") or f.get("suggestion")
        if fix:
            c.expect(fix in a["text"], "%s: the fix text is not on the page" % w)
        for t in f.get("thread_start_functions") or []:
            if t.get("function"):
                c.expect("T%d (%s)" % (t["thread"], t["function"]) in a["text"],
                         "%s: T%d's start function %s not in the legend" % (w, t["thread"], t["function"]))
    c.expect([x["name"] for x in s["structs"]] == [x["name"] for x in r["structs"]],
             "%s: structs %s" % (where, [x["name"] for x in s["structs"]]))
    for st, ps in zip(r["structs"], s["structs"]):
        c.expect(ps["visible"], "%s: struct %s not drawn" % (where, st["name"]))
        c.expect([x[1] for x in ps["fields"]] == [x["count"] for x in st["fields"]] and
                 [x[2] for x in ps["fields"]] == [x.get("heat") for x in st["fields"]],
                 "%s: struct %s fields %s" % (where, st["name"], ps["fields"]))
    c.notes.append("%s cache-frag: %d findings (%s), %d structs" % (
        where, len(findings), ", ".join(f["kind"] for f in findings), len(r["structs"])))


def check_console(c, browser):
    entries = browser.console()
    bad = [e for e in entries if e.get("level") in ("SEVERE", "WARNING")]
    c.expect(not bad, "console: %s" % bad)
    return len(entries)


def main(argv):
    diff = argv[:1] == ["--diff"]
    if diff:
        argv = argv[1:]
    expects = []
    while "--expect" in argv:
        i = argv.index("--expect")
        expects.append(argv[i + 1].split(":", 1))
        del argv[i:i + 2]
    page, png, paths = argv[0], argv[1], argv[2:]
    reports = [doc for p in paths for doc in load(p)]
    c = Checker()
    with Browser() as b:
        b.open(page)
        facts = b.run(FACTS)
        console = check_console(c, b)
        if diff:
            check_diff(c, facts, reports, expects)
        else:
            c.expect(len(facts["sections"]) == len(reports), "%d report sections for %d reports"
                     % (len(facts["sections"]), len(reports)))
            for r, s in zip(reports, facts["sections"]):
                c.expect(s["pid"] == r["pid"] and s["tool"] == r["tool"], "section %s/%s for report %s/%s"
                         % (s["pid"], s["tool"], r["pid"], r["tool"]))
                if r["tool"] == "working-set":
                    check_working_set(c, r, s, False)
                else:
                    check_cache_frag(c, r, s)
        if facts["hasScaleSwitch"]:
            # The switch shows the log charts instead of the linear ones.
            b.run("document.getElementById('log-scale').click()")
            after = b.run(FACTS)
            for r, s in zip(reports, after["sections"]):
                if r["tool"] == "working-set":
                    for t in s["timelines"]:
                        c.expect(t["visible"] == (t["scale"] == "log"),
                                 "log switch: level %d %s chart visible=%s" % (t["level"], t["scale"], t["visible"]))
            for d in after["diff"]:
                for t in d["timelines"]:
                    c.expect(t["visible"] == (t["scale"] == "log"), "log switch: diff level %d" % t["level"])
            b.run("document.getElementById('log-scale').click()")
        console += check_console(c, b)
        size = b.screenshot(png)
        c.expect(size > 1000, "screenshot of %d bytes" % size)
    if c.problems:
        for p in c.problems:
            print("check_page: " + p)
        return 1
    for n in c.notes:
        print("page ok: " + n)
    print("page ok: %d svg, %d console messages, screenshot %s" % (facts["svgCount"], console, png))
    return 0


def check_diff(c, facts, reports, expects):
    before, after = reports
    if not c.expect(len(facts["diff"]) == 1, "%d diff sections" % len(facts["diff"])):
        return
    d = facts["diff"][0]
    rows = {k: (b, a) for k, b, a in d["rows"]}
    if before["tool"] == "working-set":
        c.expect(rows.get("total_lines") == (str(before["total_lines"]), str(after["total_lines"])),
                 "total row %s, reports %d and %d" % (rows.get("total_lines"), before["total_lines"], after["total_lines"]))
        a_levels = {l["level"]: l for l in after["levels"]}
        n = 0
        for level in before["levels"]:
            other = a_levels[level["level"]]
            if level["lines"] and other["lines"]:
                n += 1
                for scale in ("linear", "log"):
                    t = check_timelines(c, "diff", d["timelines"], level, scale, level["lines"])
                    if t:
                        c.expect(t["after"] == other["lines"], "diff level %d %s: after points differ"
                                 % (level["level"], scale))
        c.notes.append("diff working-set: total %d -> %d lines, %d levels overlaid"
                       % (before["total_lines"], after["total_lines"], n))
        rows, charts = check_diff_structures(c, d, before, after)
        c.notes.append("diff working-set: %d data structures with reuse, %d structure charts" % (rows, charts))
    else:
        c.expect(rows.get("findings") == (str(len(before["findings"])), str(len(after["findings"]))),
                 "findings row %s" % (rows.get("findings"),))
        nb = sum(1 for s, _ in d["findings"] if s != "appeared")
        na = sum(1 for s, _ in d["findings"] if s != "disappeared")
        c.expect(nb == len(before["findings"]) and na == len(after["findings"]),
                 "diff lists %d before and %d after findings, reports have %d and %d"
                 % (nb, na, len(before["findings"]), len(after["findings"])))
        c.notes.append("diff cache-frag: %s" % "; ".join("%s %s" % tuple(f) for f in d["findings"]))
    for status, text in expects:
        c.expect(any(s == status and text in t for s, t in d["findings"]),
                 "no finding %s with %r in %s" % (status, text, d["findings"]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
