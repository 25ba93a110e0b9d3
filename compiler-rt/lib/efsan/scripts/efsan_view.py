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
from efsan_viewer.reports import PROG, InputError, _where, load_reports, pick_report
from efsan_viewer.formatting import (fmt_int, fmt_lines, fmt_bytes, fmt_seconds, fmt_ms, fmt_delta,
                                     esc, attr, thread_name, legend_html, object_label)
from efsan_viewer.working_set_page import phase_times, level_series, timeline_svg, level_name
from efsan_viewer.cache_frag_page import (KIND_TEXT, ranked_findings, finding_title, line_map_svg,
                                          line_map_legend)
from efsan_viewer.page import page, render_reports


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
