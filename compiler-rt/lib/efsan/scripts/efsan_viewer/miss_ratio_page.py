"""efsan-view: the miss-ratio curves of a working-set report.

Owns: the chart of the report's `miss_ratio_curve` (the whole run's), one
curve per listed data structure and per phase that has one, on a log-scale
size axis with this machine's data caches marked, and the table of where
each curve falls below 10% ("would stop missing at"); in a diff, both runs'
whole-run curves on one chart.
Does not own: the rest of the working-set section (working_set_page.py), the
document (page.py), the reading of the keys (reports.py).
"""

import math

from .reports import NUM
from .formatting import fmt_bytes, esc, attr, num, legend_html, object_label

COLOURS = ["#1f5fa8", "#d95f02", "#1b9e77", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d",
           "#666666", "#17becf"]
W, H = 760, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 20, 16, 42


def curve_of(entry):
    """The entry's curve as [(bytes, ratio, error or None)], or None."""
    c = entry.get("miss_ratio_curve") if isinstance(entry, dict) else None
    if not isinstance(c, dict):
        return None
    sizes, ratios = c.get("cache_bytes"), c.get("miss_ratio")
    if not isinstance(sizes, list) or not isinstance(ratios, list) or len(sizes) != len(ratios) or not sizes:
        return None
    errors = c.get("std_error") if isinstance(c.get("std_error"), list) else [None] * len(sizes)
    return [(s, r, e if isinstance(e, NUM) else None) for s, r, e in zip(sizes, ratios, errors)
            if isinstance(s, NUM) and s > 0 and isinstance(r, NUM)]


def stops_at(curve):
    return next((s for s, r, _ in curve if r < 0.1), None)


def chart_svg(series, caches, lo, hi, css_class="miss-ratio-chart"):
    """series: [(label, colour, curve, thick)]; caches: [(label, bytes)]."""
    x0, x1 = math.log2(lo), math.log2(hi)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def x(b):
        return LEFT + pw * (math.log2(b) - x0) / (x1 - x0 or 1)

    def y(r):
        return TOP + ph * (1 - r)

    out = ['<svg class="%s" viewBox="0 0 %d %d" role="img"><title>miss ratio by cache size</title>'
           % (css_class, W, H)]
    for r in (0, 0.25, 0.5, 0.75, 1):
        out.append('<line class="grid" x1="%d" x2="%d" y1="%s" y2="%s" stroke="#ddd"/>'
                   '<text x="%d" y="%s" text-anchor="end" font-size="11">%g</text>'
                   % (LEFT, W - RIGHT, num(y(r)), num(y(r)), LEFT - 6, num(y(r) + 4), r))
    k = int(math.ceil(x0))
    while k <= x1:
        b = 2 ** k
        if k % 2 == 0 or x1 - x0 <= 10:
            out.append('<text class="size-tick" x="%s" y="%d" text-anchor="middle" font-size="11">%s</text>'
                       % (num(x(b)), H - BOTTOM + 16, esc(fmt_bytes(b).replace(".0 ", " "))))
        k += 1
    out.append('<text x="%s" y="%d" text-anchor="middle" font-size="12">cache size (log scale), '
               'fully associative LRU, 64-byte lines</text>' % (num(LEFT + pw / 2), H - 6))
    out.append('<text x="14" y="%s" font-size="12" transform="rotate(-90 14 %s)" text-anchor="middle">'
               'miss ratio</text>' % (num(TOP + ph / 2), num(TOP + ph / 2)))
    for label, b in caches:
        if lo <= b <= hi:
            out.append('<g class="cache-mark"%s><line x1="%s" x2="%s" y1="%d" y2="%d" stroke="#b03030" '
                       'stroke-dasharray="4 3"/><text x="%s" y="%d" font-size="11" fill="#b03030">%s</text>'
                       '<title>%s: %s</title></g>'
                       % (attr(data_bytes=b, data_name=label), num(x(b)), num(x(b)), TOP, TOP + ph,
                          num(x(b) + 3), TOP + 11, esc(label), esc(label), esc(fmt_bytes(b))))
    for label, colour, curve, thick in series:
        pts = " ".join("%s,%s" % (num(x(s)), num(y(r))) for s, r, _ in curve)
        out.append('<g class="mr-curve"%s><polyline points="%s" fill="none" stroke="%s" stroke-width="%s"/>'
                   % (attr(data_name=label, data_points=len(curve)), pts, colour, "2.5" if thick else "1.5"))
        for s, r, e in curve:
            err = "" if e is None else " ± %.3f" % e
            out.append('<circle class="mr-point" cx="%s" cy="%s" r="2.5" fill="%s"%s><title>%s: %s, miss ratio '
                       '%.3f%s</title></circle>'
                       % (num(x(s)), num(y(r)), colour, attr(data_bytes=s, data_ratio=r), esc(label),
                          esc(fmt_bytes(s)), r, err))
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def data_caches(report):
    out = []
    for c in report.get("caches") or []:
        if isinstance(c, dict) and c.get("type") in ("Data", "Unified") and isinstance(c.get("size_bytes"), NUM):
            out.append(("L%s%s" % (c.get("level"), "d" if c.get("type") == "Data" else ""), c["size_bytes"]))
    return out


def render(report):
    """The section for one report ('' if it has no curve)."""
    whole = curve_of(report)
    if not whole:
        return ""
    c = report["miss_ratio_curve"]
    series = [("whole run", COLOURS[0], whole, True)]
    rows = [("whole run", whole, c)]
    for o in report.get("objects") or []:
        oc = curve_of(o)
        if oc and len(series) < len(COLOURS):
            kind, name = object_label(o)
            label = "%s %s" % (kind, name)
            series.append((label, COLOURS[len(series)], oc, False))
            rows.append((label, oc, o["miss_ratio_curve"]))
    for p in report.get("phases") or []:
        pc = curve_of(p)
        if pc:
            rows.append(("phase %s" % p.get("name", ""), pc, p["miss_ratio_curve"]))
    sizes = [s for s, _, _ in whole]
    out = ['<section class="miss-ratio">', "<h3>Miss ratio by cache size</h3>",
           '<p class="explain">The fraction of the accesses that would miss in a fully associative LRU cache of '
           '64-byte lines of each size that all the program\'s data share, for the whole run and for each '
           'listed data structure (its accesses). A step is a working set; a plateau that never reaches 0 is '
           'data touched once. Estimated from every access to %s of the lines (%s lines, %s accesses); the '
           'dashed lines are this machine\'s data caches.</p>'
           % (esc(str(c.get("sampled_fraction"))), esc(str(c.get("sampled_lines"))),
              esc(str(c.get("sampled_accesses"))))]
    out.append(legend_html([(colour, label, "line") for label, colour, _, _ in series]))
    out.append(chart_svg(series, data_caches(report), min(sizes), max(sizes)))
    body = []
    for label, curve, raw in rows:
        stop = stops_at(curve)
        body.append('<tr class="mr-row"%s><td>%s</td><td class=num>%.3f</td><td class=num>%.3f</td><td>%s</td>'
                    '<td class=num>%s</td></tr>'
                    % (attr(data_name=label, data_stop=stop if stop is not None else ""), esc(label),
                       curve[0][1], curve[-1][1],
                       esc(fmt_bytes(stop)) if stop is not None else "misses at every size",
                       esc(str(raw.get("sampled_lines", "")))))
    out.append('<table class="miss-ratio"><tr><th>curve</th><th>at %s</th><th>at %s</th>'
               '<th>would stop missing (below 10%%) at</th><th>observed lines</th></tr>%s</table>'
               % (esc(fmt_bytes(sizes[0])), esc(fmt_bytes(sizes[-1])), "".join(body)))
    out.append("</section>")
    return "\n".join(out)


def render_diff(before, after):
    """Both runs' whole-run curves on one chart ('' unless both have one)."""
    b, a = curve_of(before), curve_of(after)
    if not b or not a:
        return ""
    sizes = [s for s, _, _ in b + a]
    out = ['<section class="miss-ratio-diff">', "<h3>Miss ratio by cache size, before and after</h3>"]
    series = [("before", COLOURS[0], b, True), ("after", COLOURS[1], a, True)]
    out.append(legend_html([(colour, label, "line") for label, colour, _, _ in series]))
    out.append(chart_svg(series, data_caches(after), min(sizes), max(sizes), "miss-ratio-chart diff"))
    out.append("</section>")
    return "\n".join(out)
