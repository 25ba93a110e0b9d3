"""efsan-view --diff: two reports of one tool, before and after.

Owns: the before / after / change tables; for cache-frag, the matching of
findings across runs by their object (addresses move between runs), their
status (disappeared, appeared, changed, about the same) and the structs by
name; for working-set, the totals, phases and data structures by name (with
each structure's reused and streamed lines in both runs), the timelines of
both runs drawn over each other and both runs' structures over time on one
scale.
Does not own: drawing a line map, a timeline or a structures chart
(cache_frag_page.py, working_set_page.py, working_set_structures.py), the document (page.py), reading the reports and
picking one of a file (reports.py).
"""

import os

from .reports import InputError, _where
from .formatting import (fmt_int, fmt_lines, fmt_bytes, fmt_seconds, fmt_delta, esc, attr,
                         thread_name, legend_html, object_label, object_labels)
from .working_set_page import timeline_svg, level_name
from .cache_frag_page import (KIND_TEXT, heat_label, ranked_findings, finding_title,
                              line_map_svg, line_map_legend)
from .page import page
from . import working_set_structures as structures


def delta_cell(before, after, fmt=fmt_int, lower_is_better=True):
    """lower_is_better None: a change that is neither good nor bad in itself
    (more reuse of a structure that also grew)."""
    if before == after:
        return '<td class="num delta">±0</td>'
    if lower_is_better is None:
        tone = ""
    else:
        tone = " delta-better" if (after < before) == lower_is_better else " delta-worse"
    return '<td class="num delta%s">%s</td>' % (tone, esc(fmt_delta(before, after, fmt)))


def diff_cells(before, after, fmt=fmt_int, lower_is_better=True, shown=None):
    """before, after and change; None is a side that has no such item.
    shown: the texts of before and after, when they say more than fmt."""
    b = fmt(before) if before is not None else "—"
    a = fmt(after) if after is not None else "—"
    if shown:
        b, a = [t if v is not None else "—" for t, v in zip(shown, (before, after))]
    if before is None or after is None:
        d = '<td class="num delta">%s</td>' % ("appeared" if before is None else "disappeared")
    else:
        d = delta_cell(before, after, fmt, lower_is_better)
    return "<td class=num>%s</td><td class=num>%s</td>%s" % (esc(b), esc(a), d)


def diff_row(name, before, after, fmt=fmt_int, extra=None, key=None):
    return '<tr%s><td>%s</td>%s%s</tr>' % (
        attr(data_key=key or name, data_before=before, data_after=after), esc(name),
        diff_cells(before, after, fmt), extra or "")


def listed_structures(report):
    """{name: [lines, reused lines or None]} of the report's listed
    structures, named as on the page (one site reached from two callers:
    by caller); two that still read alike are one."""
    out = {}
    objects = report.get("objects") or []
    for o, label in zip(objects, object_labels(objects)):
        entry = out.setdefault("%s %s" % label, [0, 0])
        entry[0] += o["lines"]
        reused = o.get("reused_lines")
        entry[1] = None if reused is None or entry[1] is None else entry[1] + reused
    return out


def reuse_text(reused, lines):
    """As the text report: the share rounded down (100% is nothing streamed)."""
    if reused is None:
        return None
    return "%s (%d%%)" % (fmt_int(reused), 100 * reused // lines if lines else 0)


def diff_structures(before, after):
    """Each listed structure of either run, matched by name: its lines, and
    how many were reused and streamed in each run; then both runs' charts of
    the structures over time, one colour per structure in both."""
    b_map, a_map = listed_structures(before), listed_structures(after)
    if not b_map and not a_map:
        return ""
    names = sorted(dict.fromkeys(list(b_map) + list(a_map)),
                   key=lambda n: -max(b_map.get(n, [0])[0], a_map.get(n, [0])[0]))
    pick = lambda m, n, i: m[n][i] if n in m else None
    rows = []
    for n in names:
        lines_b, lines_a = pick(b_map, n, 0), pick(a_map, n, 0)
        reused_b, reused_a = pick(b_map, n, 1), pick(a_map, n, 1)
        streamed_b = lines_b - reused_b if reused_b is not None else None
        streamed_a = lines_a - reused_a if reused_a is not None else None
        # A run that lists the structure without its reuse (a report from
        # before reuse, or record_snapshots=0) has no reuse cells to compare.
        unknown = (n in b_map and reused_b is None) or (n in a_map and reused_a is None)
        reuse = ('<td class="num muted" colspan=6>%s</td>'
                 % ("no reuse in either report" if reused_b is None and reused_a is None else
                    "no reuse in the before report" if n in b_map and reused_b is None else
                    "no reuse in the after report")
                 if unknown else
                 diff_cells(reused_b, reused_a, fmt_int, None,
                            shown=(reuse_text(reused_b, lines_b), reuse_text(reused_a, lines_a)))
                 + diff_cells(streamed_b, streamed_a, fmt_int, None))
        rows.append('<tr%s><td>%s</td>%s%s</tr>' % (
            attr(data_key=n, data_before=lines_b, data_after=lines_a,
                 data_reused_before=reused_b, data_reused_after=reused_a,
                 data_streamed_before=streamed_b, data_streamed_after=streamed_a),
            esc(n), diff_cells(lines_b, lines_a), reuse))
    out = ["<h3>Data structures</h3>",
           '<p class="explain">Each listed structure of either run, matched by kind and name (a heap '
           'block by its allocation site): its lines, and how many of them were reused (touched in '
           'several sample periods; the share of its lines) or streamed (in one only) in each run.</p>',
           '<table class="diff-table objects structures"><tr><th rowspan=2>data structure</th>'
           '<th colspan=3>lines</th><th colspan=3>reused</th><th colspan=3>streamed</th></tr>'
           '<tr>%s</tr>%s</table>' % ("<th>before</th><th>after</th><th>change</th>" * 3, "".join(rows))]
    out.append(diff_structure_charts(before, after))
    return "\n".join(out)


def diff_structure_charts(before, after):
    """Both runs' stacked charts on one scale of lines, a structure in the
    same colour in both."""
    runs = [(side, r) for side, r in (("before", before), ("after", after))
            if isinstance(r.get("timeline"), dict) and r["timeline"].get("lines")]
    if not runs:
        return ""
    texts = {}
    for _, r in runs:
        listed = r["timeline"].get("structures") or []
        for s, text in zip(listed, structures.structure_texts(listed)):
            texts.setdefault(structures.structure_label(s), text)
    colours = {l: structures.STRUCTURE_COLOURS[i % len(structures.STRUCTURE_COLOURS)]
               for i, l in enumerate(texts)}
    y_max = max(max(r["timeline"]["lines"]) for _, r in runs)
    out = ["<h3>Data structures over time</h3>"]
    for side, r in runs:
        svg, bands = structures.structures_svg(r, y_max=y_max, colour_of=colours.get)
        out.append('<figure class="structures"%s><figcaption><b>%s</b></figcaption>%s</figure>'
                   % (attr(data_run=side), side, svg))
    legend = [(colours[l], text, "box") for l, text in texts.items()]
    legend.append((structures.REST_COLOUR, "the other structures", "box"))
    out.append(legend_html(legend))
    if len(runs) == 1:
        out.append('<p class="muted">Only the %s run has a timeline.</p>' % runs[0][0])
    return "\n".join(out)


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
    phases_b, phases_a = before.get("phases") or [], after.get("phases") or []
    if phases_b or phases_a:
        name_of = lambda p: p.get("name") or "(unnamed)"
        b_map = {name_of(x): x["lines"] for x in phases_b}
        a_map = {name_of(x): x["lines"] for x in phases_a}
        names = list(dict.fromkeys(list(b_map) + list(a_map)))
        out.append("<h3>Phases</h3>")
        out.append('<table class="diff-table phases"><tr><th></th><th>before</th><th>after</th><th>change</th></tr>%s</table>'
                   % "".join(diff_row(n, b_map.get(n), a_map.get(n), fb, key=n) for n in names))
    out.append(diff_structures(before, after))
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
    allocations), so the object's name, allocation site or named range and
    the line's offset in it."""
    obj = f.get("object") or {}
    kind = obj.get("kind", "unknown")
    if kind == "global":
        who = "global " + str(obj.get("name"))
    elif kind == "heap":
        frames = obj.get("alloc_stack") or []
        who = "heap " + " < ".join("%s:%s" % (fr.get("function"), fr.get("line")) for fr in frames[:4])
    elif isinstance(obj.get("named_range"), dict):
        who = "named range " + str(obj["named_range"].get("name"))
    elif kind == "stack":
        who = "stack T%s" % obj.get("thread")
    else:
        # The offset in the page survives ASLR for code and data alike.
        who = "unknown page+0x%x" % (f["line_address"] & 0xfff)
    predicted = f["kind"].startswith("predicted")
    where = None
    if isinstance(obj.get("address"), int) and kind in ("global", "heap"):
        where = f["line_address"] - obj["address"]
    elif isinstance(obj.get("named_range"), dict) and isinstance(obj["named_range"].get("address"), int):
        where = f["line_address"] - obj["named_range"]["address"]
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
    # What fixing each run's findings would save (the program's expected
    # gain), not a sum of per-line costs.
    tb = before.get("expected_gain", {}).get("cpu_seconds", 0)
    ta = after.get("expected_gain", {}).get("cpu_seconds", 0)
    rows = [diff_row("findings", len(before["findings"]), len(after["findings"]), key="findings"),
            diff_row("expected gain (CPU time the fixes save)", tb, ta, fmt_seconds,
                     key="expected_gain")]
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
        rows = [diff_row("the fix saves (CPU)", fb["impact"]["estimated_seconds"] if fb else None,
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
                    if y and heat_label(y) != heat_label(x):
                        changes.append("%s %s → %s" % (x.get("name") or x.get("index"), heat_label(y), heat_label(x)))
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
    if before["tool"] == "working-set":
        from .miss_ratio_page import render_diff as miss_ratio_diff
        body += miss_ratio_diff(before, after)
    title = "efsan diff: %s" % os.path.basename(after["executable"])
    subtitle = ("before: %s (%s, pid %d) · after: %s (%s, pid %d)"
                % (esc(_where(paths[0])), esc(before["executable"]), before["pid"],
                   esc(_where(paths[1])), esc(after["executable"]), after["pid"]))
    return page(title, subtitle, body, before["tool"] == "working-set")
