"""efsan-view: the section of a page that draws a cache-frag report.

Owns: the cards at the top (findings, the program's expected gain, how
accesses were seen); the findings ranked by the CPU time their fix saves
(portability notes last), each with its facts, fix, line
map (a box per byte, coloured by the threads that write and read it),
objects, access sites and accesses; the struct field heat. Also a finding's
title and rank order and the line map with its legend, which the diff shows
for both runs.
Does not own: the matching of findings across two runs (diff.py), the
document around the section (page.py), the checking of the report's keys
(reports.py).
"""

from .formatting import (fmt_int, fmt_estimate, fmt_bytes, fmt_seconds, fmt_share, esc, attr, num, thread_colour,
                         thread_name, legend_html, frame_text, object_label, stack_html,
                         extra_keys_html)


KIND_TEXT = {"false-sharing": "false sharing", "true-sharing": "true sharing",
             "predicted-false-sharing": "predicted false sharing"}
CF_KNOWN = {"tool", "schema_version", "pid", "executable", "sampled", "sample_period", "transfer_ns",
            "transfer_source", "line_pairs", "line_pairs_source", "machine", "machine_profile",
            "machine_profile_missing", "process_cpu_seconds",
            "tool_cpu_seconds", "run_cpu_seconds", "expected_gain",
            "hidden_findings", "min_share", "report_threshold", "tracked_lines", "untracked_lines",
            "findings", "structs"}


def ranked_findings(report):
    order = list(enumerate(report["findings"]))
    order.sort(key=lambda p: (bool(p[1]["impact"].get("conditional")),
                              -p[1]["impact"]["estimated_seconds"], p[0]))
    return [f for _, f in order]


def estimated(f):
    """Whether the finding's invalidations are the model's estimate (as
    cf_estimated says): a prediction, or more in parallel than observed."""
    obs = f.get("observed_invalidations")
    return not isinstance(obs, int) or f.get("estimated_parallel_invalidations", 0) > obs


def fmt_count(n, report):
    """An access count: sampled counts to 3 significant digits, as the text."""
    return fmt_estimate(n) if report.get("sampled") else fmt_int(n)


def share_range(claim):
    """", 38-47% over the machine profile's range" where the claim (a
    finding's impact, the expected gain) spans one, else "": the text
    report's words (docs/CacheFrag.md, "The machine profile")."""
    low, high = fmt_share(claim.get("low_share", 0)), fmt_share(claim.get("high_share", 0))
    if "low_share" not in claim or low == high:
        return ""
    return ", %s-%s over the machine profile's range" % (low.rstrip("%"), high)


def process_time_note(report):
    """The process's CPU time as measured, beside the run's (the program's
    own, which shares are of)."""
    if "process_cpu_seconds" not in report:
        return ""
    tool = report.get("tool_cpu_seconds") or {}
    return ("; the process measured %s, of which the tool's sampled path and start-up %s, its "
            "line-transfer measurement %s%s" % (
                fmt_seconds(report["process_cpu_seconds"]), fmt_seconds(tool.get("sampled_path", 0)),
                fmt_seconds(tool.get("transfer_measurement", 0)),
                (", polls beyond what the threads would wait side by side %s"
                 % fmt_seconds(tool["polls_beyond_side_by_side"]))
                if tool.get("polls_beyond_side_by_side") else ""))


def is_note(f):
    """A portability note: a prediction that gains nothing on this CPU."""
    return bool(f["impact"].get("conditional"))


def finding_title(f):
    obj = f.get("object") or {}
    kind, label = object_label(obj) if obj else ("unknown", "(unknown)")
    if kind == "global":
        what = "global %s" % label
    elif kind == "heap":
        what = "heap block %s" % label
    elif kind == "stack" or obj.get("named_range"):
        what = label
    else:
        what = "unknown memory"
    return "%s on %s" % (KIND_TEXT.get(f["kind"], f["kind"]), what)


def range_label(rng, members, line_address=None):
    """The name of a line-map range: members when the report names them,
    else the object and the offset into it."""
    names = []
    for m in members:
        mo, ms = m.get("offset"), m.get("size")
        if isinstance(mo, int) and isinstance(ms, int) and mo < rng["offset"] + rng["length"] and rng["offset"] < mo + ms:
            if m.get("name"):
                names.append(str(m["name"]))
    if names:
        return ", ".join(dict.fromkeys(names))
    obj = rng.get("object")
    named = rng.get("named_range")
    if not obj and isinstance(named, dict):
        # Memory the program named that is no heap block or global: the
        # range, and the offsets in it.
        base = '"%s"' % named.get("name")
        off = None
        if isinstance(line_address, int) and isinstance(named.get("address"), int):
            off = line_address + rng["offset"] - named["address"]
    elif not obj:
        return ""
    else:
        base = obj.get("name") or ("heap" if obj.get("kind") == "heap" else obj.get("kind", "?"))
        off = rng.get("object_offset")
    if isinstance(off, int):
        last = off + rng["length"] - 1
        return "%s +%d..%d" % (base, off, last) if last != off else "%s +%d" % (base, off)
    return base


def _text_width(text, px=6.4):
    return len(text) * px


def line_map_svg(f, cell=12, compact=False):
    size = f["line_size"]
    per_row = 64
    rows = (size + per_row - 1) // per_row
    left, top = 56, 18
    row_h = 30
    lanes = 0 if compact else 3
    lane_h = 15
    block = row_h + lanes * lane_h + 10
    width = left + per_row * cell + 10
    height = top + rows * block
    members = f.get("members") or []
    patterns = {}
    cells = []
    labels = []
    for rng in f["line_map"]:
        writers = sorted(rng["writers"])
        readers = sorted(rng["readers"])
        if len(writers) > 1:
            # Pattern ids are unique per page: per finding and writer set
            # ("m1" for -1, the others).
            pid = "stripes-%s-%s" % (f.get("_id", "f"), "_".join(str(w).replace("-", "m") for w in writers))
            if pid not in patterns:
                stripe = 6
                bands = "".join('<rect x="%d" y="0" width="%d" height="%d" fill="%s"/>'
                                % (i * stripe, stripe, stripe * len(writers), thread_colour(w))
                                for i, w in enumerate(writers))
                patterns[pid] = ('<pattern id="%s" patternUnits="userSpaceOnUse" width="%d" height="%d" '
                                 'patternTransform="rotate(45)">%s</pattern>'
                                 % (pid, stripe * len(writers), stripe * len(writers), bands))
            fill, opacity = "url(#%s)" % pid, 1
            state = "written by several threads"
        elif writers:
            fill, opacity = thread_colour(writers[0]), 1
            state = "written by %s" % thread_name(writers[0])
        elif readers:
            fill, opacity = thread_colour(readers[0]), 0.3
            state = "read by %s" % ", ".join(thread_name(r) for r in readers)
        else:
            fill, opacity = "#e4e4e4", 1
            state = "not accessed"
        label = range_label(rng, members, f.get("line_address"))
        tip = "bytes %d–%d: %s%s%s" % (rng["offset"], rng["offset"] + rng["length"] - 1,
                                       (label + ", ") if label else "", state,
                                       ("; read by " + ", ".join(thread_name(r) for r in readers))
                                       if writers and readers else "")
        for b in range(rng["offset"], min(rng["offset"] + rng["length"], size)):
            r, c = divmod(b, per_row)
            x = left + c * cell
            y = top + r * block
            cells.append('<rect class="byte" x="%d" y="%d" width="%d" height="%d" fill="%s"%s%s><title>byte %d · %s</title></rect>'
                         % (x, y, cell - 1, row_h, fill,
                            ' fill-opacity="%s"' % opacity if opacity != 1 else "",
                            attr(data_offset=b, data_writers=" ".join(str(w) for w in writers),
                                 data_readers=" ".join(str(t) for t in readers)),
                            b, esc(tip)))
        if label and not compact:
            labels.append((rng["offset"], rng["length"], label))
    out = ['<svg class="line-map" viewBox="0 0 %d %d" role="img"%s>' % (width, height, attr(data_line_size=size))]
    out.append("<title>line map: which thread reads and writes each byte of the %d-byte line</title>" % size)
    if patterns:
        out.append("<defs>%s</defs>" % "".join(patterns.values()))
    for r in range(rows):
        y = top + r * block
        out.append('<text class="tick" x="%d" y="%d" text-anchor="end">+%d</text>' % (left - 6, y + row_h / 2 + 4, r * per_row))
        for c in range(0, per_row + 1, 8):
            x = left + c * cell - 0.5
            out.append('<line class="byte-tick" x1="%s" x2="%s" y1="%d" y2="%d"/>' % (num(x), num(x), y - 4, y + row_h + 2))
            if c < per_row and r == 0:
                out.append('<text class="tick small" x="%s" y="%d">%d</text>' % (num(x + 2), y - 6, c))
    out += cells
    # Ranges named below the bytes, in lanes so that names do not overlap.
    lane_end = [-1e9] * max(lanes, 1)
    for offset, length, label in labels:
        r = offset // per_row
        c0 = offset % per_row
        c1 = min(c0 + length, per_row)
        x0, x1 = left + c0 * cell, left + c1 * cell - 1
        centre = (x0 + x1) / 2.0
        text = label
        w = _text_width(text)
        tx = min(max(centre - w / 2, 2), width - w - 2)
        lane = next((i for i in range(lanes) if lane_end[i] < tx - 6 + r * 1e6), None)
        if lane is None:
            text = label if len(label) <= 12 else label[:11] + "…"
            w = _text_width(text)
            tx = min(max(centre - w / 2, 2), width - w - 2)
            lane = min(range(lanes), key=lambda i: lane_end[i])
        lane_end[lane] = tx + w + r * 1e6
        y = top + r * block + row_h + 4
        ly = y + (lane + 1) * lane_h - 3
        out.append('<g class="range-label"%s><line x1="%s" x2="%s" y1="%d" y2="%d"/>'
                   '<line x1="%s" x2="%s" y1="%d" y2="%d"/><text x="%s" y="%s">%s</text></g>'
                   % (attr(data_offset=offset, data_length=length), num(x0), num(x1), y, y,
                      num(centre), num(centre), y, ly - 10, num(tx), num(ly), esc(text)))
    out.append("</svg>")
    return "".join(out)


def line_map_legend(f):
    items = []
    functions = {}
    for t in f.get("thread_start_functions") or []:
        if isinstance(t, dict):
            functions[t.get("thread")] = t.get("function")
    threads = sorted(set(f["threads"]) | {t for r in f["line_map"] for t in r["writers"] + r["readers"]})
    for t in threads:
        fn = functions.get(t)
        items.append((thread_colour(t), "%s%s writes" % (thread_name(t), (" (%s)" % fn) if fn else ""), "box"))
    items.append(("#bbbbbb", "light: read only", "box"))
    if any(len(r["writers"]) > 1 for r in f["line_map"]):
        items.append(("repeating-linear-gradient(45deg,#0072B2 0 5px,#E69F00 5px 10px)",
                      "stripes: written by several threads (true sharing)", "box"))
    items.append(("#e4e4e4", "not accessed", "box"))
    return legend_html(items)


def line_map_table(f):
    members = f.get("members") or []
    rows = []
    for rng in f["line_map"]:
        obj = rng.get("object")
        named = rng.get("named_range")
        if obj or named:
            kind, label = object_label(dict(obj or {"kind": "unknown"},
                                            **({"named_range": named} if named else {})))
            what = label if not obj else "%s %s" % (kind, label)
        else:
            what = ""
        rows.append("<tr><td class=num>%d–%d</td><td class=num>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>"
                    % (rng["offset"], rng["offset"] + rng["length"] - 1, rng["length"], esc(what),
                       esc(range_label(rng, members, f.get("line_address"))),
                       esc(", ".join(thread_name(t) for t in rng["writers"])),
                       esc(", ".join(thread_name(t) for t in rng["readers"]))))
    return ('<table class="line-map-table"><tr><th>bytes</th><th>length</th><th>object</th><th>name</th>'
            '<th>written by</th><th>read by</th></tr>%s</table>' % "".join(rows))


def finding_html(f, rank, report, label=None):
    imp = f["impact"]
    obs = f.get("observed_invalidations")
    fmt_inv = fmt_estimate if estimated(f) else fmt_int
    out = ['<article class="finding kind-%s" id="finding-%d-%d"%s>'
           % (esc(f["kind"]), report["pid"], rank,
              attr(data_rank=rank, data_kind=f["kind"], data_invalidations=f["invalidations"],
                   data_seconds=imp["estimated_seconds"]))]
    out.append('<h3><span class="rank">%s</span> <span class="badge %s">%s</span> %s</h3>'
               % (esc(label or "#%d" % rank), esc(f["kind"]), esc(KIND_TEXT.get(f["kind"], f["kind"])), esc(finding_title(f))))
    span = share_range(imp)
    if imp.get("conditional"):
        gain = ("none on this CPU (%s); where lines pair: %s of CPU time (%s of the run there%s)"
                % (report.get("line_pairs_source", "no 128-byte line pairing"),
                   fmt_seconds(imp["estimated_seconds"]), fmt_share(imp["share"]), span))
    else:
        # A layout this run did not have is priced as if it happened: its
        # share is of the run it would then be.
        gain = ("%s of CPU time (%s of the run%s%s; about %s of wall time)"
                % (fmt_seconds(imp["estimated_seconds"]), fmt_share(imp["share"]),
                   " with that layout" if imp.get("hypothetical") else "", span,
                   fmt_seconds(imp.get("wall_seconds", 0))))
    facts = [("the fix saves", gain)]
    if imp.get("at_bound"):
        # docs/CacheFrag.md, "Claims at the bound".
        profile = report.get("machine_profile")
        locked = imp.get("bound_locked")
        if imp.get("bound_loop_work"):
            # The profile's loops read at the compiler's count
            # (docs/CacheFrag.md, "The work between writes").
            source = ("as this machine's profile measured it for loops with %d instructions per "
                      "write, as the compiler counted this one's" % imp["bound_loop_work"])
        elif locked and profile:
            source = ("as this machine's profile measured it (work between the adds moves it)")
        elif profile and profile.get("contended_share"):
            measured = profile["contended_share"]
            source = ("as this machine's profile measured it (%s-%s; a loop's shape moves it)"
                      % (fmt_share(measured["low"]), fmt_share(measured["high"])))
        else:
            source = ("a default: fixes of such lines measured 6-95% of the threads' time (the "
                      "machine decides; efsan-calibrate measures this one)")
        figure = (", %s of its time beside the other" % fmt_share(imp["bound_share"])
                  if "bound_share" in imp else "")
        line = "an atomic both threads bump" if locked else "one line"
        facts.append(("how sure", "the threads keep taking the line from each other: this is the bound of "
                      "what a thread loses to " + line + figure + ", not a price of its transfers, "
                      + source))
    facts += [("invalidations", "%s (%s false sharing, %s true sharing)"
               % (fmt_inv(f["invalidations"]), fmt_inv(f.get("false_sharing_invalidations", 0)),
                  fmt_inv(f.get("true_sharing_invalidations", 0)))),
              ("counted in this run", fmt_int(obs) if isinstance(obs, int) else "— (a prediction)"),
              ("if the threads ran in parallel", fmt_estimate(f.get("estimated_parallel_invalidations", 0))),
              ("line", "0x%x, %d bytes%s" % (f["line_address"], f["line_size"],
                                               (", predicted: %s" % f["prediction"]) if f.get("prediction") else "")),
              ("threads", ", ".join(thread_name(t) for t in f["threads"]))]
    functions = [t for t in f.get("thread_start_functions") or [] if isinstance(t, dict)]
    if functions:
        facts[-1] = ("threads", ", ".join("%s %s" % (thread_name(t.get("thread", -1)),
                                                     ("runs %s()" % t["function"]) if t.get("function") else "(start unknown)")
                                          for t in functions))
    out.append('<table class="facts">%s</table>'
               % "".join("<tr><th>%s</th><td>%s</td></tr>" % (esc(k), esc(v)) for k, v in facts))
    fix = f.get("fix") or {}
    text = fix.get("text") or f.get("suggestion")
    if text:
        out.append('<div class="fix"><b>Fix:</b> %s</div>' % esc(text))
    out.append("<h4>Line map</h4>")
    out.append('<p class="explain">Each box is one byte of the %d-byte line; the colour says which thread '
               'writes it. Bytes written by different threads on one line are false sharing.</p>' % f["line_size"])
    out.append(line_map_svg(f))
    out.append(line_map_legend(f))
    out.append(line_map_table(f))
    objects = f.get("objects") or []
    if objects:
        rows = []
        for o in objects:
            kind, label = object_label(o)
            ranges = ", ".join("%d–%d" % (a, b) for a, b in o.get("contended_bytes") or [])
            rows.append("<tr><td>%s</td><td>%s%s</td><td class=num>%s</td><td class=num>%s</td><td>%s</td></tr>"
                        % (esc(kind), esc(label), stack_html(o.get("alloc_stack") or []),
                           esc(fmt_bytes(o["size"]) if isinstance(o.get("size"), int) else "—"),
                           esc(fmt_inv(o.get("invalidations", 0))), esc(ranges)))
        out.append("<h4>Objects</h4><table class=objects><tr><th>kind</th><th>object</th><th>size</th>"
                   "<th>invalidations</th><th>contended bytes</th></tr>%s</table>" % "".join(rows))
    sites = f.get("access_sites") or []
    if sites:
        rows = "".join('<tr><td><span class="dot" style="background:%s"></span>%s</td><td>%s</td><td>%s</td>'
                       '<td class=num>%s</td><td>%s</td></tr>'
                       % (thread_colour(s.get("thread", -1)), esc(thread_name(s.get("thread", -1))),
                          esc(s.get("access", "")), esc(frame_text(s)), esc(fmt_count(s.get("count", 0), report)),
                          esc(", ".join("%d–%d" % tuple(r) for r in s.get("line_bytes") or [])))
                       for s in sites)
        out.append("<h4>Where the threads access the line</h4><table class=sites><tr><th>thread</th><th>access</th>"
                   "<th>code</th><th>count</th><th>bytes</th></tr>%s</table>" % rows)
    accesses = f.get("accesses") or []
    if accesses:
        rows = "".join("<tr><td>%s</td><td class=num>%d–%d</td><td class=num>%s</td><td class=num>%s</td></tr>"
                       % (esc(thread_name(a.get("thread", -1))), a.get("offset", 0),
                          a.get("offset", 0) + a.get("length", 1) - 1, esc(fmt_count(a.get("reads", 0), report)),
                          esc(fmt_count(a.get("writes", 0), report))) for a in accesses)
        out.append("<details><summary>Accesses per thread</summary><table class=accesses><tr><th>thread</th>"
                   "<th>bytes</th><th>reads</th><th>writes</th></tr>%s</table></details>" % rows)
    out.append("</article>")
    return "\n".join(out)


def ranking_svg(findings):
    row, label_w, bar_w = 26, 420, 300
    longest = max([f["impact"]["estimated_seconds"] for f in findings] + [1e-12])
    out = ['<svg class="ranking" viewBox="0 0 %d %d" role="img"><title>findings ranked by estimated cost</title>'
           % (label_w + bar_w + 190, row * len(findings) + 6)]
    for i, f in enumerate(findings):
        y = 3 + i * row
        s = f["impact"]["estimated_seconds"]
        w = max(bar_w * s / longest, 1)
        label = "#%d %s" % (i + 1, finding_title(f))
        if len(label) > 64:
            label = label[:63] + "…"
        colour = {"false-sharing": "#c0392b", "true-sharing": "#7f8c8d"}.get(f["kind"], "#e67e22")
        out.append('<g class="rank-bar"%s><text class="bar-label" x="%d" y="%d" text-anchor="end">%s</text>'
                   '<rect x="%d" y="%d" width="%s" height="%d" fill="%s"/>'
                   '<text class="bar-value" x="%s" y="%d">%s · %s</text></g>'
                   % (attr(data_rank=i + 1, data_seconds=s), label_w - 8, y + 16, esc(label), label_w, y + 3,
                      num(w), row - 8, colour, num(label_w + w + 6), y + 16, esc(fmt_seconds(s)),
                      esc(fmt_share(f["impact"]["share"]))))
    out.append("</svg>")
    return "".join(out)


HEAT_COLOURS = {"hot": "#d62728", "warm": "#ff9f1c", "cold": "#4a90d9", "padding": "#cfcfcf",
                "unused": "#ececec", "not_seen": "#9b7fc4", "too_few_samples": "#b0b0b0"}


def heat_label(f):
    """A field's heat as the text report words it: a field whose address
    escapes is "not seen" with no count, and its count a lower bound."""
    heat = f.get("heat", "")
    if heat == "not_seen":
        return "not seen (address escapes)"
    if heat == "too_few_samples":
        # The report calls no field hot or cold from a handful of samples.
        return "too few samples to tell" + (" (lower bound: address escapes)"
                                            if f.get("address_escapes") else "")
    if f.get("address_escapes"):
        return "%s (lower bound: address escapes)" % heat
    return heat


def struct_svg(s, report, width=900):
    size = max(s["size"], 1)
    scale = min(14.0, (width - 20) / float(size))
    h = 40
    # One width for every struct, so that small structs keep their scale.
    out = ['<svg class="struct-map" viewBox="0 0 %d %d" role="img"%s><title>fields of %s by heat</title>'
           % (width, h + 34, attr(data_struct=s["name"]), esc(s["name"]))]
    for f in s["fields"]:
        x = 10 + f["offset"] * scale
        w = max(f["size"] * scale - 1, 1)
        heat = f.get("heat", "")
        name = f.get("name") or ("(padding)" if heat == "padding" else "field %s" % f.get("index", "?"))
        out.append('<g class="field"%s><rect x="%s" y="4" width="%s" height="%d" fill="%s"/>'
                   % (attr(data_name=name, data_heat=heat, data_count=f["count"]), num(x), num(w), h,
                      HEAT_COLOURS.get(heat, "#999")))
        if _text_width(name, 6.0) < w - 2:
            out.append('<text class="field-name" x="%s" y="%d" text-anchor="middle">%s</text>'
                       % (num(x + w / 2), 4 + h // 2 + 4, esc(name)))
        out.append("<title>%s: offset %d, %d bytes, %s, %s accesses (%s)</title></g>"
                   % (esc(name), f["offset"], f["size"], esc(f.get("type", "")), esc(fmt_count(f["count"], report)),
                      esc(heat_label(f))))
    # Cache-line boundaries, as the struct would sit at a 64-byte aligned
    # address; at most about 32 of them drawn for a large struct.
    step = 64 * max(1, -(-size // (64 * 32)))
    for b in range(0, size + 1, step):
        x = 10 + b * scale
        out.append('<line class="cl-boundary" x1="%s" x2="%s" y1="0" y2="%d"/>'
                   '<text class="tick small" x="%s" y="%d" text-anchor="middle">%d</text>'
                   % (num(x), num(x), h + 8, num(x), h + 22, b))
    if size % step:
        out.append('<text class="tick small" x="%s" y="%d" text-anchor="middle">%d</text>'
                   % (num(10 + size * scale), h + 22, size))
    out.append("</svg>")
    return "".join(out)


def struct_html(s, report):
    busiest = max([f["count"] for f in s["fields"]] + [1])
    rows = []
    for f in s["fields"]:
        heat = f.get("heat", "")
        share = fmt_share(float(f["count"]) / s["accesses"] if s.get("accesses") else 0)
        rows.append('<tr class="heat-%s"><td class=num>%s</td><td>%s</td><td class=num>%d</td><td class=num>%d</td>'
                    '<td><code>%s</code></td><td class=num>%s</td><td><span class="count-bar" style="width:%dpx;background:%s"></span> %s</td>'
                    '<td>%s</td></tr>'
                    % (esc(heat), esc(f.get("index", "")), esc(f.get("name") or "—"), f["offset"], f["size"],
                       esc(f.get("type", "")), esc(fmt_count(f["count"], report)), int(120 * f["count"] / busiest),
                       HEAT_COLOURS.get(heat, "#999"), esc(share), esc(heat_label(f))))
    note = ""
    if s.get("hot_cold_mix"):
        note = ('<p class="verdict">Hot and cold fields are mixed: without the cold fields the hot ones would '
                'span fewer cache lines (hot span %s).</p>' % esc(fmt_bytes(s.get("hot_span", 0))))
    return ('<div class="struct"%s><h4>%s <span class=muted>%s, %s field accesses</span></h4>%s%s'
            '<table class="fields"><tr><th>#</th><th>member</th><th>offset</th><th>size</th><th>type</th>'
            '<th>accesses</th><th>share</th><th>heat</th></tr>%s</table></div>'
            % (attr(data_struct=s["name"]), esc(s["name"]), esc(fmt_bytes(s["size"])),
               esc(fmt_count(s.get("accesses", 0), report)), struct_svg(s, report), note, "".join(rows)))


def render_cache_frag(report, idx):
    out = ['<section class="report cache-frag" id="report-%d"%s>' % (idx, attr(data_pid=report["pid"]))]
    out.append("<h2>False sharing and struct fields · %s <span class=muted>(pid %d)</span></h2>"
               % (esc(report["executable"]), report["pid"]))
    ranked = ranked_findings(report)
    # Portability notes gain nothing on this CPU: they are no findings, are
    # not counted as findings, and are listed after them, apart.
    findings = [f for f in ranked if not is_note(f)]
    notes = [f for f in ranked if is_note(f)]
    # The program's expected gain (what fixing the findings listed saves),
    # not a sum of per-line costs.
    gain = report.get("expected_gain", {})
    counts = {}
    for f in findings:
        counts[f["kind"]] = counts.get(f["kind"], 0) + 1
    out.append('<div class="cards">')
    out.append('<div class="card" data-key="findings" data-value="%d"><div class="card-title">findings</div>'
               '<div class="big">%d</div><div>%s</div></div>'
               % (len(findings), len(findings),
                  esc((", ".join("%d %s" % (n, KIND_TEXT.get(k, k)) for k, n in counts.items()) or "none")
                      + ("; %d portability note%s apart" % (len(notes), "" if len(notes) == 1 else "s")
                         if notes else ""))))
    out.append('<div class="card" data-key="expected-gain" data-value="%s"><div class="card-title">expected gain'
               '</div><div class="big">%s</div><div class="hint">of the run\'s CPU time (%s of %s%s); about %s of '
               'wall time%s</div></div>'
               % (gain.get("share", 0), esc(fmt_share(gain.get("share", 0))),
                  esc(fmt_seconds(gain.get("cpu_seconds", 0))),
                  esc(fmt_seconds(report.get("run_cpu_seconds", 0))), esc(share_range(gain)),
                  esc(fmt_seconds(gain.get("wall_seconds", 0))), esc(process_time_note(report))))
    sampling = ("1 in %s accesses (sampled)" % fmt_int(report["sample_period"])
                if report.get("sampled") else "every access")
    out.append('<div class="card"><div class="card-title">accesses seen</div><div class="big">%s</div>'
               '<div class="hint">counts are estimates: samples × period</div></div>' % esc(sampling))
    out.append("</div>")
    profile = report.get("machine_profile") or {}
    if profile.get("rounds_without_cost"):
        # The text report's words (docs/CacheFrag.md, "The machine's state").
        if profile.get("state_rounds"):
            state = ("this run met the state of %d of its rounds (line transfers of %s ns): the claims "
                     "are at their median" % (profile["state_rounds"], fmt_int(report.get("transfer_ns", 0))))
        else:
            state = "this run could not tell which state it met: the claims are at the profile's median"
        out.append('<p class="warning" data-key="machine-states">In %d of its machine profile\'s %d rounds a '
                   'line both threads keep writing cost a thread at most 10%% of its time (its two CPUs '
                   'behaved as one core then), in the others up to %s: on this machine what a fix of such a '
                   'line gains depends on the state it is in when the program runs; %s, with their range '
                   'over both states.</p>'
                   % (profile["rounds_without_cost"], profile.get("measurements", 0),
                      esc(fmt_share((profile.get("contended_share") or {}).get("high", 0))), esc(state)))
    if report.get("untracked_lines"):
        out.append('<p class="warning">%s lines needed a record but got none '
                   '(cache_frag_max_tracked_lines): findings may be missing.</p>'
                   % esc(fmt_int(report["untracked_lines"])))
    out.append("<h3>Findings ranked by impact</h3>")
    if findings:
        out.append(ranking_svg(findings))
        for rank, f in enumerate(findings, 1):
            f = dict(f, _id="%d-%d" % (idx, rank))
            out.append(finding_html(f, rank, report))
    else:
        out.append('<p class="none">No shared cache line above the thresholds (%s invalidations, %s of the '
                   'run).</p>' % (esc(fmt_int(report.get("report_threshold", 0))),
                                  esc(fmt_share(report.get("min_share", 0)))))
    if notes:
        out.append('<h3 class="notes">Portability notes</h3>')
        out.append('<p class="explain">Not findings: predicted false sharing with 128-byte lines, which this '
                   'CPU does not fetch in pairs (%s): the fix gains nothing here, and would gain where lines '
                   'pair.</p>' % esc(report.get("line_pairs_source", "")))
        for n, f in enumerate(notes, 1):
            rank = len(findings) + n
            f = dict(f, _id="%d-%d" % (idx, rank))
            out.append(finding_html(f, rank, report, label="note %d" % n))
    if report.get("hidden_findings"):
        out.append('<p class="muted">%s more shared lines, each saving less than %s of the run if fixed '
                   '(cache_frag_min_share).</p>' % (esc(fmt_int(report["hidden_findings"])),
                                                    esc(fmt_share(report.get("min_share", 0)))))
    out.append("<h3>Struct field heat</h3>")
    structs = report["structs"]
    if structs:
        out.append('<p class="explain">Each struct drawn to scale, a box per field, coloured by how often the '
                   'program accessed it; dashed lines are 64-byte cache-line boundaries (for a struct at a '
                   'line-aligned address).</p>')
        seen = {f.get("heat") for st in structs for f in st.get("fields", [])}
        out.append(legend_html([(c, k.replace("_", " "), "box") for k, c in HEAT_COLOURS.items()
                                if k in seen or k in ("hot", "warm", "cold")]))
        for s in structs:
            out.append(struct_html(s, report))
    else:
        out.append('<p class="none">No struct field accesses were counted.</p>')
    out.append('<p class="settings muted">a line moving between cores: %d ns (%s) · min share %s · report '
               'threshold %s invalidations · %s tracked lines</p>'
               % (report["transfer_ns"], esc(report.get("transfer_source", "cache_frag_transfer_ns")),
                  esc(fmt_share(report.get("min_share", 0))),
                  esc(fmt_int(report.get("report_threshold", 0))), esc(fmt_int(report.get("tracked_lines", 0)))))
    out.append(extra_keys_html(report, CF_KNOWN))
    out.append("</section>")
    return "\n".join(out)
