"""efsan-view: the HTML document around the sections.

Owns: the one self-contained page: its head (a Content-Security-Policy that
forbids fetching anything, so the page opens from disk offline; the inline
style and script), title, header, log-scale switch and footer; and the page
of one or more reports, a section each with a list of them at the top.
Does not own: the sections (working_set_page.py, cache_frag_page.py,
diff.py), nor writing the file (efsan_view.py).
"""

import os

from .reports import SCHEMA_VERSION, _where
from .formatting import esc
from .working_set_page import render_working_set
from .cache_frag_page import render_cache_frag


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
