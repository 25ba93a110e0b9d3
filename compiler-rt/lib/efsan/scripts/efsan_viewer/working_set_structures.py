"""The working set by data structure over time: a stacked area chart of the
report's `timeline` (docs/WorkingSet.md, "Data structures over time"), with
the caches as lines and the phases as markers, and the reuse of each
structure (reused in several sample periods / streamed)."""
from . import working_set_page as ws
from .formatting import attr, esc, fmt_bytes, fmt_int, fmt_ms, num, object_labels

# Colour-blind-safe palette (Okabe-Ito, then greys) for the structures.
STRUCTURE_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9",
                     "#D55E00", "#F0E442", "#000000", "#7f7f7f", "#b3b3b3"]
REST_COLOUR = "#dddddd"


def structure_label(s):
    """What identifies a structure on the page (data-name) and across runs:
    its kind and the report's name."""
    if s.get("kind") == "rest":
        return s["name"]
    return "%s %s" % (s.get("kind", "?"), s.get("name", "?"))


def structure_texts(structures):
    """What a person reads in the legend and tooltips, per structure: as in
    the tables (a heap block by its allocation site's function, file and
    line, without the build's directories; two of one site by caller)."""
    return ["%s %s" % label for label in object_labels(structures)]


def timeline_entries(tl):
    """[(start_ms, end_ms, lines, [lines per structure], rest)] per entry."""
    by = tl.get("by_structure") or []
    out = []
    for i, lines in enumerate(tl.get("lines") or []):
        out.append((tl["start_us"][i] / 1000.0, tl["end_us"][i] / 1000.0, lines,
                    [column[i] for column in by], tl["rest"][i]))
    return out


def structures_svg(report, y_max=None, colour_of=None):
    """Stacked areas, one band per structure (the rest on top), each entry a
    step over its span; hover a band's step for its numbers. y_max and
    colour_of (a structure's label to its colour) let two runs' charts be
    read side by side."""
    tl = report["timeline"]
    entries = timeline_entries(tl)
    structures = tl.get("structures") or []
    lb = report["cache_line_size"]
    x_lo = min(e[0] for e in entries)
    x_hi = max(e[1] for e in entries)
    y_hi = max([e[2] for e in entries] + [1, y_max or 0])
    chart = ws.Chart(x_lo, x_hi, y_hi * 1.08, False, lb)
    out = ['<svg class="structures-chart"%s viewBox="0 0 %d %d" role="img">' % (attr(data_y_max=y_hi), chart.W, chart.H)]
    out.append("<title>working set by data structure per %s period</title>"
               % esc(fmt_ms(tl["period_ms"])))
    out += chart.axes(ws.time_axis_label(report))
    for i, (p, start, end) in enumerate(ws.phase_times(report)):
        if chart.x_lo <= start <= chart.x_hi:
            x = chart.x(start)
            out.append('<g class="phase-marker"%s><line x1="%s" x2="%s" y1="%s" y2="%s"/>'
                       '<text x="%s" y="%s">%s</text><title>phase %s starts at %s</title></g>'
                       % (attr(data_name=p.get("name", "")), num(x), num(x), chart.T, chart.T + chart.ph,
                          num(x + 3), chart.T + 12, esc(p.get("name", "")), esc(p.get("name", "")),
                          esc(fmt_ms(start))))
    texts = structure_texts(structures)
    bands = [(s, (colour_of and colour_of(structure_label(s))) or STRUCTURE_COLOURS[k % len(STRUCTURE_COLOURS)], k,
              texts[k]) for k, s in enumerate(structures)]
    bands.append(({"kind": "rest", "name": "the other structures"}, REST_COLOUR, None, "the other structures"))
    below = [0] * len(entries)
    for s, colour, k, text in bands:
        out.append('<g class="structure-band"%s>' % attr(data_name=structure_label(s), data_index=k if k is not None else "rest"))
        for i, (start, end, lines, values, rest) in enumerate(entries):
            v = values[k] if k is not None else rest
            if v <= 0:
                continue
            xa, xb = chart.x(start), chart.x(end)
            ya, yb = chart.y(below[i] + v), chart.y(below[i])
            out.append('<rect class="band-step" x="%s" y="%s" width="%s" height="%s" fill="%s"%s>'
                       '<title>%s, %s – %s: %s lines (%s) of %s</title></rect>'
                       % (num(xa), num(ya), num(max(xb - xa, 0.5)), num(max(yb - ya, 0.5)), colour,
                          attr(data_entry=i, data_lines=v),
                          esc(text), esc(fmt_ms(start)), esc(fmt_ms(end)),
                          esc(fmt_int(v)), esc(fmt_bytes(v * lb)), esc(fmt_int(lines))))
            below[i] += v
        out.append("</g>")
    for c in ws.data_caches(report):
        lines = c["size_bytes"] / float(lb)
        if chart.in_range(lines):
            y = chart.y(lines)
            out.append('<g class="cache-line"%s><line x1="%s" x2="%s" y1="%s" y2="%s"/>'
                       '<text x="%s" y="%s" text-anchor="end">%s %s</text></g>'
                       % (attr(data_level=c["level"]), chart.L, chart.L + chart.pw, num(y), num(y),
                          chart.L + chart.pw - 4, num(y - 4), esc(ws.cache_label(c)),
                          esc(fmt_bytes(c["size_bytes"]))))
    out.append("</svg>")
    return "".join(out), bands


def reuse_text(report_or_object, reused):
    """The reused lines as printed: "about N (L–H)" for an estimate (the
    report's reused_lines_low/high, an interval of about 95%), N when exact."""
    low, high = report_or_object.get("reused_lines_low"), report_or_object.get("reused_lines_high")
    if isinstance(low, int) and isinstance(high, int) and low != high:
        return "about %s (%s – %s)" % (fmt_int(reused), fmt_int(low), fmt_int(high))
    return fmt_int(reused)


def reuse_table(report):
    """Reused and streamed lines of each listed structure (estimates with
    their interval)."""
    lb = report["cache_line_size"]
    rows = []
    objects = report.get("objects") or []
    for o, (kind, label) in zip(objects, object_labels(objects)):
        if "reused_lines" not in o:
            continue
        reused, lines = o["reused_lines"], o["lines"]
        rows.append('<tr class="reuse"%s><td>%s</td><td>%s</td><td class=num>%s</td><td class=num>%s</td>'
                    '<td class=num>%s</td>%s</tr>'
                    % (attr(data_name=label, data_reused=reused, data_streamed=lines - reused),
                       esc(kind), esc(label), esc(fmt_int(lines)), esc(reuse_text(o, reused)),
                       esc(fmt_int(lines - reused)), ws.fit_cell(report, reused)))
    if not rows:
        return ""
    return ('<table class="reuse"><tr><th>kind</th><th>data structure</th><th>lines</th>'
            '<th>reused</th><th>streamed</th>%s</tr>%s</table>'
            % (ws.fit_header(report, "reused part fits"), "".join(rows)))


def render(report):
    """The section, or "" when the report has no timeline."""
    tl = report.get("timeline")
    if not isinstance(tl, dict) or not tl.get("lines"):
        return ""
    lb = report["cache_line_size"]
    out = ["<h3>Data structures over time</h3>"]
    out.append('<p class="explain">The lines of each data structure in each period of %s (a step per '
               'period; an entry covers %s period%s), stacked, with the other structures on top: '
               'which structure makes the working set when. Hover a step for its numbers.</p>'
               % (esc(fmt_ms(tl["period_ms"])), fmt_int(tl.get("periods_per_entry", 1)),
                  "" if tl.get("periods_per_entry", 1) == 1 else "s"))
    svg, bands = structures_svg(report)
    out.append(svg)
    legend = [(colour, text, "box") for _, colour, _, text in bands]
    if ws.data_caches(report):
        legend.append(("#b03030", "cache size (data/unified)", "dash"))
    out.append(ws.legend_html(legend))
    reused = report.get("reused_lines")
    if isinstance(reused, int):
        total = report["total_lines"]
        verdict = ws.fit_verdict(report, reused)
        out.append('<p class="reuse-total"%s>Reused (touched in several sample periods): %s lines (%s)%s; '
                   'streamed (touched in one only): %s lines (%s).</p>'
                   % (attr(data_reused=reused, data_streamed=total - reused), esc(reuse_text(report, reused)),
                      esc(fmt_bytes(reused * lb)), (", " + esc(verdict[1])) if verdict else "",
                      esc(fmt_int(total - reused)), esc(fmt_bytes((total - reused) * lb))))
    out.append(reuse_table(report))
    return "\n".join(out)
