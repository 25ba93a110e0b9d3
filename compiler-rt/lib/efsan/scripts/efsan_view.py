#!/usr/bin/env python3
"""efsan-view: turns EfficiencySanitizer JSON reports into pictures.

  efsan-view REPORT.json [REPORT.json ...] -o report.html
      one self-contained HTML page (inline SVG, CSS and script; nothing is
      fetched): for working-set reports the snapshot timeline of every level,
      the machine's caches, phases and data structures; for cache-frag
      reports the findings ranked by impact with their line maps and fixes,
      and the struct field heat.
  efsan-view --perfetto REPORT.json [...] -o trace.json
      Chrome trace-event JSON (ui.perfetto.dev, chrome://tracing): a counter
      track per working-set level, phases as events.
  efsan-view --diff BEFORE.json AFTER.json -o diff.html
      two runs side by side with what changed.

Reads the reports of ESAN_OPTIONS=report_format=json (docs/JSONSchema.md),
schema version 1; a file may hold several reports one after the other (a
program that forks writes one per process). Python 3 standard library only.
"""
import argparse
import json
import os
import sys

# The package beside this file in the source tree; in the build and where it
# is installed, in ../share/efsan-view (scripts/CMakeLists.txt).
sys.path.insert(1, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                os.pardir, "share", "efsan-view"))
from efsan_viewer.reports import SCHEMA_VERSION, PROG, InputError, _where, load_reports, pick_report
from efsan_viewer.formatting import (fmt_int, fmt_lines, fmt_bytes, fmt_seconds, fmt_ms, fmt_delta,
                                     esc, attr, thread_name, legend_html, object_label)
from efsan_viewer.working_set_page import (phase_times, level_series, timeline_svg, level_name,
                                           render_working_set)
from efsan_viewer.cache_frag_page import (KIND_TEXT, ranked_findings, finding_title, line_map_svg,
                                          line_map_legend, render_cache_frag)


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

CSS = """
:root { --fg:#1d1d1f; --muted:#6b6b70; --line:#d9d9de; --bg:#fff; --panel:#f6f7f9; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
       color: var(--fg); background: var(--bg); margin: 0 auto; padding: 18px 28px 60px; max-width: 1180px; }
h1 { font-size: 22px; margin: 4px 0 2px; }
h2 { font-size: 18px; margin: 30px 0 10px; padding-top: 12px; border-top: 2px solid var(--line); }
h3 { font-size: 16px; margin: 24px 0 8px; }
h4 { font-size: 14px; margin: 14px 0 6px; }
.muted, .hint { color: var(--muted); }
.hint { font-size: 12px; }
.explain { color: #3b3b40; max-width: 80ch; }
code { font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
header .sub { color: var(--muted); }
.controls { position: sticky; top: 0; background: rgba(255,255,255,.95); padding: 6px 0; z-index: 2;
            border-bottom: 1px solid var(--line); }
.cards { display: flex; gap: 12px; flex-wrap: wrap; margin: 10px 0; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 210px; }
.card-title { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.big { font-size: 22px; font-weight: 600; }
table { border-collapse: collapse; margin: 8px 0 14px; font-size: 13px; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.facts th { background: none; color: var(--muted); font-weight: normal; }
svg { display: block; width: 100%; height: auto; max-width: 900px; margin: 6px 0; }
svg text { font: 11px system-ui, "DejaVu Sans", sans-serif; fill: #333; }
svg .tick.small { font-size: 9px; fill: #777; }
svg .axis-label { font-size: 12px; fill: #222; font-weight: 600; }
svg .plot-bg { fill: #fbfbfc; }
svg .grid { stroke: #e6e6ea; }
svg .axis, svg .tickmark { stroke: #555; }
svg path.area { fill-opacity: .14; stroke: none; }
svg path.step { fill: none; stroke-width: 1.6; }
svg .cache-line line { stroke: #b03030; stroke-dasharray: 6 4; stroke-width: 1.3; }
svg .cache-line text, svg .caches-above { fill: #b03030; font-weight: 600; }
svg .cache-line text, svg .phase-marker text, svg .range-label text, svg .field-name {
  paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
svg .phase-marker line { stroke: #6a3d9a; stroke-dasharray: 3 3; stroke-width: 1.3; }
svg .phase-marker text { fill: #6a3d9a; font-weight: 600; }
svg .phase-span.phase-0 { fill: #6a3d9a; fill-opacity: .06; }
svg .phase-span.phase-1 { fill: #6a3d9a; fill-opacity: .12; }
svg .byte { stroke: none; }
svg .byte-tick { stroke: #888; stroke-width: .8; }
svg .range-label line { stroke: #777; stroke-width: .8; }
svg .cl-boundary { stroke: #222; stroke-dasharray: 4 3; }
svg .field text, svg .field-name { fill: #111; font-size: 10px; }
.scale-log { display: none; }
body.log-scale .scale-log { display: block; }
body.log-scale .scale-linear { display: none; }
figure.level { margin: 12px 0 20px; }
figcaption { font-size: 13px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; font-size: 12px; margin: 4px 0 8px; }
.key { display: inline-flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 22px; height: 0; border-top: 3px solid; }
.swatch.dash { border-top-style: dashed; }
.swatch.box { height: 12px; width: 14px; border: 1px solid #999; }
.dot { display: inline-block; width: 10px; height: 10px; border-radius: 5px; margin-right: 5px; }
.finding { border: 1px solid var(--line); border-radius: 10px; padding: 4px 18px 12px; margin: 16px 0; }
.finding h3 { margin-top: 12px; }
.rank { color: var(--muted); }
.badge { font-size: 12px; padding: 2px 8px; border-radius: 10px; color: #fff; background: #888; vertical-align: 2px; }
.badge.false-sharing { background: #c0392b; }
.badge.true-sharing { background: #7f8c8d; }
.badge.predicted-false-sharing { background: #e67e22; }
.fix { background: #eef7ee; border-left: 4px solid #2e8b57; padding: 8px 12px; margin: 8px 0; max-width: 95ch; }
.verdict.fit-fits { color: #1e7b34; } .verdict.fit-exceeds { color: #a33; }
td.fit-fits { color: #1e7b34; } td.fit-exceeds { color: #a33; }
.warning { background: #fff4e0; border-left: 4px solid #e69f00; padding: 6px 10px; }
.count-bar { display: inline-block; height: 10px; vertical-align: middle; }
ol.stack { margin: 2px 0 0 18px; padding: 0; font-size: 12px; color: var(--muted); }
.diff-status { font-weight: 600; }
.diff-status.status-disappeared { color: #1e7b34; } .diff-status.status-appeared { color: #b03030; }
.diff-status.status-changed { color: #b36b00; } .diff-status.status-same { color: var(--muted); }
.finding-diff { border: 1px solid var(--line); border-radius: 10px; padding: 4px 18px 12px; margin: 16px 0; }
.side { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.side > div { min-width: 0; }
.delta-better { color: #1e7b34; } .delta-worse { color: #b03030; }
details summary { cursor: pointer; color: #234; }
.none { color: #1e7b34; }
"""

SCRIPT = """
(function () {
  var box = document.getElementById('log-scale');
  if (!box) return;
  function apply() { document.body.classList.toggle('log-scale', box.checked); }
  box.addEventListener('change', apply);
  apply();
})();
"""


def page(title, subtitle, body, with_scale_toggle):
    controls = ""
    if with_scale_toggle:
        controls = ('<div class="controls"><label><input type="checkbox" id="log-scale"> '
                    'logarithmic y axis (shows small and large working sets and every cache level together)'
                    '</label></div>')
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            # Nothing may be fetched: the page must open from disk, offline.
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            'style-src \'unsafe-inline\'; script-src \'unsafe-inline\'; img-src data:">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            '<link rel="icon" href="data:,">'
            '<title>%s</title><style>%s</style></head>\n<body>\n<header><h1>%s</h1><div class="sub">%s</div></header>\n'
            '%s\n%s\n<footer class="muted"><p>Written by efsan-view from EfficiencySanitizer JSON reports '
            '(schema version %d).</p></footer>\n<script>%s</script>\n</body></html>\n'
            % (esc(title), CSS, esc(title), subtitle, controls, body, SCHEMA_VERSION, SCRIPT))


def render_reports(reports, sources):
    parts = []
    for i, r in enumerate(reports):
        if r["tool"] == "working-set":
            parts.append(render_working_set(r, i))
        else:
            parts.append(render_cache_frag(r, i))
    tools = sorted({r["tool"] for r in reports})
    title = "efsan report: " + ", ".join(os.path.basename(r["executable"]) for r in reports[:3])
    if len(reports) > 3:
        title += ", …"
    subtitle = "%d report%s (%s) from %s" % (len(reports), "s" if len(reports) != 1 else "",
                                            " and ".join(tools), esc(", ".join(_where(s) for s in sources)))
    if len(reports) > 1:
        toc = "".join('<li><a href="#report-%d">%s · %s (pid %d)</a></li>'
                      % (i, esc(r["tool"]), esc(r["executable"]), r["pid"]) for i, r in enumerate(reports))
        subtitle += "<ol class=toc>%s</ol>" % toc
    return page(title, subtitle, "\n".join(parts), any(r["tool"] == "working-set" for r in reports))


# ---------------------------------------------------------------------------
# Diff
# ---------------------------------------------------------------------------

def delta_cell(before, after, fmt=fmt_int, lower_is_better=True):
    if before == after:
        return '<td class="num delta">±0</td>'
    better = (after < before) == lower_is_better
    return '<td class="num delta %s">%s</td>' % ("delta-better" if better else "delta-worse",
                                                  esc(fmt_delta(before, after, fmt)))


def diff_row(name, before, after, fmt=fmt_int, extra=None, key=None):
    b = fmt(before) if before is not None else "—"
    a = fmt(after) if after is not None else "—"
    if before is None or after is None:
        d = '<td class="num delta">%s</td>' % ("appeared" if before is None else "disappeared")
    else:
        d = delta_cell(before, after, fmt)
    return '<tr%s><td>%s</td><td class=num>%s</td><td class=num>%s</td>%s%s</tr>' % (
        attr(data_key=key or name, data_before=before, data_after=after), esc(name), esc(b), esc(a), d, extra or "")


def object_key(o):
    kind, label = object_label(o)
    return "%s %s" % (kind, label)


def diff_working_set(before, after):
    lb = before["cache_line_size"]
    out = ['<section class="diff working-set">']
    out.append("<h2>Working set: before and after</h2>")
    fb = lambda n: "%s (%s)" % (fmt_lines(n), fmt_bytes(n * lb))
    rows = [diff_row("total working set", before["total_lines"], after["total_lines"], fb, key="total_lines")]
    for k in list(dict.fromkeys(list(before["regions"]) + list(after["regions"]))):
        rows.append(diff_row("  " + k, before["regions"].get(k), after["regions"].get(k), fb, key="region " + k))
    peak_b = max([l["peak_lines"] for l in before["levels"]] + [0])
    peak_a = max([l["peak_lines"] for l in after["levels"]] + [0])
    rows.append(diff_row("largest snapshot", peak_b, peak_a, fb, key="peak_lines"))
    out.append('<table class="diff-table totals"><tr><th></th><th>before</th><th>after</th><th>change</th></tr>%s</table>'
               % "".join(rows))
    # Phases by name, objects by kind and name.
    for section, key in (("Phases", "phases"), ("Data structures", "objects")):
        b_items, a_items = before.get(key) or [], after.get(key) or []
        if not b_items and not a_items:
            continue
        name_of = (lambda p: p.get("name") or "(unnamed)") if key == "phases" else object_key
        b_map = {name_of(x): x["lines"] for x in b_items}
        a_map = {name_of(x): x["lines"] for x in a_items}
        names = list(dict.fromkeys(list(b_map) + list(a_map)))
        if key == "objects":
            names.sort(key=lambda n: -max(b_map.get(n, 0), a_map.get(n, 0)))
        out.append("<h3>%s</h3>" % section)
        out.append('<table class="diff-table %s"><tr><th></th><th>before</th><th>after</th><th>change</th></tr>%s</table>'
                   % (key, "".join(diff_row(n, b_map.get(n), a_map.get(n), fb, key=n) for n in names)))
    out.append("<h3>Over time</h3>")
    out.append(legend_html([("#1f5fa8", "before", "line"), ("#d55e00", "after", "line")]))
    a_levels = {l["level"]: l for l in after["levels"]}
    drawn = 0
    for level in before["levels"]:
        other = a_levels.get(level["level"])
        if not level["lines"] or not other or not other["lines"]:
            continue
        drawn += 1
        out.append('<figure class="level"%s><figcaption><b>%s</b> — peak %s before, %s after</figcaption>'
                   % (attr(data_level=level["level"]), esc(level_name(level, before)),
                      esc(fb(level["peak_lines"])), esc(fb(other["peak_lines"]))))
        out.append(timeline_svg(before, level, False, compare=(after, other)))
        out.append(timeline_svg(before, level, True, compare=(after, other)))
        out.append("</figure>")
    if not drawn:
        out.append('<p class="muted">No level has snapshots in both runs.</p>')
    out.append("</section>")
    return "\n".join(out)


def finding_identity(f):
    """What names a finding across runs: addresses move (ASLR, other
    allocations), so the object's name or allocation site and the line's
    offset in it."""
    obj = f.get("object") or {}
    kind = obj.get("kind", "unknown")
    if kind == "global":
        who = "global " + str(obj.get("name"))
    elif kind == "heap":
        frames = obj.get("alloc_stack") or []
        who = "heap " + " < ".join("%s:%s" % (fr.get("function"), fr.get("line")) for fr in frames[:4])
    elif kind == "stack":
        who = "stack T%s" % obj.get("thread")
    else:
        # The offset in the page survives ASLR for code and data alike.
        who = "unknown page+0x%x" % (f["line_address"] & 0xfff)
    predicted = f["kind"].startswith("predicted")
    where = None
    if isinstance(obj.get("address"), int) and kind in ("global", "heap"):
        where = f["line_address"] - obj["address"]
    return (who, predicted), where


def match_findings(before, after):
    groups = {}
    for side, report in (("b", before), ("a", after)):
        for f in ranked_findings(report):
            key, where = finding_identity(f)
            groups.setdefault(key, {"b": [], "a": []})[side].append((where, f))
    pairs = []
    for key, g in groups.items():
        bs = sorted(g["b"], key=lambda p: (p[0] is None, p[0] or 0))
        as_ = sorted(g["a"], key=lambda p: (p[0] is None, p[0] or 0))
        used = set()
        for wb, fb in bs:
            best = None
            for j, (wa, fa) in enumerate(as_):
                if j in used:
                    continue
                if best is None or (wb is not None and wa is not None and
                                    abs(wa - wb) < abs(as_[best][0] - wb)):
                    best = j
            if best is None:
                pairs.append((fb, None))
            else:
                used.add(best)
                pairs.append((fb, as_[best][1]))
        for j, (wa, fa) in enumerate(as_):
            if j not in used:
                pairs.append((None, fa))
    return pairs


def finding_status(fb, fa):
    if fa is None:
        return "disappeared"
    if fb is None:
        return "appeared"
    sb, sa = fb["impact"]["estimated_seconds"], fa["impact"]["estimated_seconds"]
    if fb["kind"] != fa["kind"] or sorted(fb["threads"]) != sorted(fa["threads"]):
        return "changed"
    if max(sb, sa) > 0 and abs(sb - sa) > 0.2 * max(sb, sa):
        return "changed"
    return "same"


STATUS_TEXT = {"disappeared": "disappeared", "appeared": "appeared", "changed": "changed",
               "same": "about the same"}


def diff_cache_frag(before, after):
    out = ['<section class="diff cache-frag">']
    out.append("<h2>False sharing: before and after</h2>")
    tb = sum(f["impact"]["estimated_seconds"] for f in before["findings"])
    ta = sum(f["impact"]["estimated_seconds"] for f in after["findings"])
    rows = [diff_row("findings", len(before["findings"]), len(after["findings"]), key="findings"),
            diff_row("estimated time lost", tb, ta, fmt_seconds, key="estimated_seconds")]
    out.append('<table class="diff-table totals"><tr><th></th><th>before</th><th>after</th><th>change</th></tr>%s</table>'
               % "".join(rows))
    pairs = match_findings(before, after)
    order = {"disappeared": 0, "appeared": 1, "changed": 2, "same": 3}
    pairs.sort(key=lambda p: (order[finding_status(*p)],
                              -max((p[0] or p[1])["impact"]["estimated_seconds"],
                                   (p[1] or p[0])["impact"]["estimated_seconds"])))
    counts = {}
    for p in pairs:
        s = finding_status(*p)
        counts[s] = counts.get(s, 0) + 1
    out.append('<p class="summary">%s</p>' % esc(", ".join("%d %s" % (counts[s], STATUS_TEXT[s])
                                                          for s in order if s in counts) or "no findings in either run"))
    for i, (fb, fa) in enumerate(pairs):
        status = finding_status(fb, fa)
        f = fb or fa
        out.append('<article class="finding-diff status-%s"%s>' % (status, attr(data_status=status,
                                                                               data_title=finding_title(f))))
        out.append('<h3><span class="diff-status status-%s">%s</span> · %s</h3>'
                   % (status, esc(STATUS_TEXT[status]), esc(finding_title(f))))
        rows = [diff_row("estimated cost", fb["impact"]["estimated_seconds"] if fb else None,
                         fa["impact"]["estimated_seconds"] if fa else None, fmt_seconds, key="estimated_seconds"),
                diff_row("invalidations", fb["invalidations"] if fb else None,
                         fa["invalidations"] if fa else None, key="invalidations")]
        if fb and fa and fb["kind"] != fa["kind"]:
            rows.append('<tr><td>kind</td><td>%s</td><td>%s</td><td></td></tr>'
                        % (esc(KIND_TEXT.get(fb["kind"], fb["kind"])), esc(KIND_TEXT.get(fa["kind"], fa["kind"]))))
        if fb and fa and sorted(fb["threads"]) != sorted(fa["threads"]):
            rows.append('<tr><td>threads</td><td>%s</td><td>%s</td><td></td></tr>'
                        % (esc(", ".join(map(thread_name, fb["threads"]))),
                           esc(", ".join(map(thread_name, fa["threads"])))))
        out.append('<table class="diff-table"><tr><th></th><th>before</th><th>after</th><th>change</th></tr>%s</table>'
                   % "".join(rows))
        cols = []
        for label, g in (("before", fb), ("after", fa)):
            if g is None:
                cols.append('<div><h4>%s</h4><p class="muted">no such finding</p></div>' % label)
            else:
                g = dict(g, _id="d%d%s" % (i, label[0]))
                fix = (g.get("fix") or {}).get("text") or g.get("suggestion") or ""
                cols.append('<div class="%s"><h4>%s</h4>%s%s<p class="hint">%s</p></div>'
                            % (label, label, line_map_svg(g, compact=True), line_map_legend(g), esc(fix)))
        out.append('<div class="side">%s</div>' % "".join(cols))
        out.append("</article>")
    # Structs by name.
    b_structs = {s["name"]: s for s in before["structs"]}
    a_structs = {s["name"]: s for s in after["structs"]}
    names = list(dict.fromkeys(list(b_structs) + list(a_structs)))
    if names:
        out.append("<h3>Struct fields</h3>")
        rows = []
        for n in names:
            sb, sa = b_structs.get(n), a_structs.get(n)
            changes = []
            if sb and sa:
                if sb["size"] != sa["size"]:
                    changes.append("size %d → %d bytes" % (sb["size"], sa["size"]))
                fb_ = {(x.get("name") or x.get("index")): x for x in sb["fields"]}
                for x in sa["fields"]:
                    y = fb_.get(x.get("name") or x.get("index"))
                    if y and y.get("heat") != x.get("heat"):
                        changes.append("%s %s → %s" % (x.get("name") or x.get("index"), y.get("heat"), x.get("heat")))
            rows.append(diff_row(n, sb["accesses"] if sb else None, sa["accesses"] if sa else None,
                                 extra="<td>%s</td>" % esc("; ".join(changes)), key=n))
        out.append('<table class="diff-table structs"><tr><th>struct</th><th>accesses before</th><th>after</th>'
                   '<th>change</th><th>layout and heat</th></tr>%s</table>' % "".join(rows))
    out.append("</section>")
    return "\n".join(out)


def render_diff(before, after, paths):
    if before["tool"] != after["tool"]:
        raise InputError("%s is a %s report and %s a %s report: --diff compares two reports of one tool"
                         % (_where(paths[0]), before["tool"], _where(paths[1]), after["tool"]))
    body = diff_working_set(before, after) if before["tool"] == "working-set" else diff_cache_frag(before, after)
    title = "efsan diff: %s" % os.path.basename(after["executable"])
    subtitle = ("before: %s (%s, pid %d) · after: %s (%s, pid %d)"
                % (esc(_where(paths[0])), esc(before["executable"]), before["pid"],
                   esc(_where(paths[1])), esc(after["executable"]), after["pid"]))
    return page(title, subtitle, body, before["tool"] == "working-set")


# ---------------------------------------------------------------------------
# Perfetto / Chrome trace events
# ---------------------------------------------------------------------------

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
            for i, v in enumerate(values):
                events.append({"ph": "C", "name": name, "pid": pid, "tid": 0,
                               "ts": int((first + i) * period * 1000),
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


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message):
        sys.stderr.write("%s: error: %s (see %s --help)\n" % (PROG, message, PROG))
        sys.exit(2)


def write_output(path, text):
    if path in (None, "-"):
        sys.stdout.write(text)
        return
    try:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        raise InputError("%s: cannot write: %s" % (path, e.strerror or e))


def main(argv=None):
    ap = Parser(prog=PROG, description="Pictures of EfficiencySanitizer JSON reports "
                "(ESAN_OPTIONS=report_format=json): an HTML page, a Perfetto trace, or the difference of two runs.",
                epilog="examples:\n  efsan-view report.json -o report.html\n"
                       "  efsan-view --perfetto report.json -o trace.json\n"
                       "  efsan-view --diff before.json after.json -o diff.html",
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", metavar="REPORT.json",
                    help="JSON reports ('-' for standard input); a file may hold several, one after the other")
    ap.add_argument("-o", "--output", metavar="FILE", help="where to write (default: standard output)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--perfetto", action="store_true",
                      help="write Chrome trace-event JSON for ui.perfetto.dev instead of HTML")
    mode.add_argument("--diff", action="store_true", help="compare two reports: BEFORE.json AFTER.json")
    ap.add_argument("--before-pid", type=int, metavar="PID", help="with --diff: the report of this process in BEFORE")
    ap.add_argument("--after-pid", type=int, metavar="PID", help="with --diff: the report of this process in AFTER")
    args = ap.parse_args(argv)
    try:
        if args.diff:
            if len(args.reports) != 2:
                ap.error("--diff takes two reports, BEFORE.json and AFTER.json (got %d)" % len(args.reports))
            before = pick_report(args.reports[0], args.before_pid)
            after = pick_report(args.reports[1], args.after_pid)
            write_output(args.output, render_diff(before, after, args.reports))
            return 0
        if args.before_pid is not None or args.after_pid is not None:
            ap.error("--before-pid and --after-pid go with --diff")
        reports, sources = [], []
        for path in args.reports:
            loaded = load_reports(path)
            reports += loaded
            sources += [path] * len(loaded)
        if args.perfetto:
            trace, notes = perfetto_trace(reports, sources)
            for n in notes:
                sys.stderr.write("%s: note: %s\n" % (PROG, n))
            write_output(args.output, json.dumps(trace, separators=(",", ":")) + "\n")
        else:
            write_output(args.output, render_reports(reports, args.reports))
        return 0
    except InputError as e:
        sys.stderr.write("%s: error: %s\n" % (PROG, e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
