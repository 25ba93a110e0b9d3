"""efsan-view: the section of a page that draws a working-set report.

Owns: the cards at the top, the split by kind of memory, the machine's caches
and which of them a working set fits, the timeline of every level (the
chart, its axes and ticks, linear and log scale, phase markers, cache lines,
the fit strip), the phases and the data structures. Also the reading of a
level's kept snapshots and of the phases' times, and the timeline with a
second run drawn over it, which the diff and the trace use so that all three
agree on the times.
Does not own: the document around the section (page.py), the before-and-after
tables (diff.py), the trace (perfetto_trace.py), the checking of the report's
keys (reports.py).
"""

import math

from .reports import NUM
from .formatting import (fmt_int, fmt_lines, fmt_bytes, fmt_ms, esc, attr, num, legend_html,
                         object_label, object_labels, stack_html, extra_keys_html)


def nice_step(raw, bases=(1, 2, 5)):
    if raw <= 0:
        return 1
    mag = 10 ** math.floor(math.log10(raw))
    for b in bases + (10,):
        if raw <= b * mag * 1.0000001:
            return b * mag
    return 10 * mag


def ticks_up_to(hi, step):
    """0, step, 2 * step, ... up to hi (rounding errors included)."""
    ticks = []
    v = 0
    while v <= hi * 1.0000001:
        ticks.append(v)
        v += step
    return ticks


def linear_ticks(hi, count=5):
    return ticks_up_to(hi, nice_step(hi / count))


def byte_ticks(hi_bytes, count=5):
    """Ticks at a power-of-two step (512 KiB, 1 MiB, ...) up to hi_bytes."""
    return ticks_up_to(
        hi_bytes, 2 ** max(math.ceil(math.log2(max(hi_bytes / float(count), 1))), 0))


def time_ticks(lo_ms, hi_ms, count=6):
    step = nice_step((hi_ms - lo_ms) / float(count)) if hi_ms > lo_ms else 1
    v = math.ceil(lo_ms / step) * step
    ticks = []
    while v <= hi_ms + step * 1e-6:
        ticks.append(v)
        v += step
    return ticks


def fmt_tick_time(ms, span_ms):
    if span_ms >= 2000:
        text = "%.3f" % (ms / 1000.0)
        text = text.rstrip("0").rstrip(".")
        return text + " s"
    return "%g ms" % round(ms, 3)


def data_caches(report):
    """The data and unified caches, smallest level first, deduplicated."""
    seen = set()
    out = []
    for c in report.get("caches") or []:
        ctype = str(c.get("type", "")).lower()
        if ctype.startswith("instr"):
            continue
        key = (c["level"], c["size_bytes"])
        if key in seen:
            continue
        seen.add(key)
        out.append(c)
    out.sort(key=lambda c: (c["level"], c["size_bytes"]))
    return out


def cache_label(c):
    ctype = str(c.get("type", "")).lower()
    suffix = "d" if ctype.startswith("data") and c["level"] == 1 else ""
    return "L%d%s" % (c["level"], suffix)


def cache_sharing(c):
    n = c.get("shared_by_cpus")
    if isinstance(n, int) and not isinstance(n, bool):
        if n == 0:
            return "per core"  # from AMD's legacy cpuid leaves: no count
        return "private to one CPU" if n == 1 else "shared by %d CPUs" % n
    return ""


def fit_verdict(report, lines):
    caches = data_caches(report)
    if not caches or lines <= 0:
        return None
    nbytes = lines * report["cache_line_size"]
    for c in caches:
        if nbytes <= c["size_bytes"]:
            return ("fits", "fits %s (%s)" % (cache_label(c), fmt_bytes(c["size_bytes"])))
    last = caches[-1]
    return ("exceeds", "exceeds %s (%s)" % (cache_label(last), fmt_bytes(last["size_bytes"])))


def fit_cell(report, lines):
    v = fit_verdict(report, lines)
    if v is None:
        # No caches: the column is left out (fit_header).
        return '<td class="muted">—</td>' if data_caches(report) else ""
    return '<td class="fit-%s">%s</td>' % (v[0], esc(v[1]))


def fit_header(report, title="cache fit"):
    return "<th>%s</th>" % esc(title) if data_caches(report) else ""


def phase_times(report):
    """[(phase, start_ms, end_ms or None)] for phases that carry times."""
    out = []
    for p in report.get("phases") or []:
        start = p.get("start_ms")
        if isinstance(start, NUM) and not isinstance(start, bool):
            end = p.get("end_ms")
            out.append((p, float(start),
                        float(end) if isinstance(end, NUM) and not isinstance(end, bool) else None))
    return out


def level_series(level):
    """(first_index, period_ms, values): the kept snapshots, the index of the
    first of them among all taken, the level's nominal period."""
    values = level["lines"]
    first = max(level["taken"] - len(values), 0)
    return first, level["period_ms"], values


def level_spans(level):
    """[(start_ms, end_ms)] of each kept snapshot on the sampler's clock:
    the report's start_us/end_us (a late sample's snapshot covers the time
    since the one before, and a phase boundary ends a snapshot early). A
    report without them (older runtimes) gives snapshot j the nominal
    [j*period, (j+1)*period]."""
    first, period, values = level_series(level)
    starts, ends = level.get("start_us"), level.get("end_us")
    if isinstance(starts, list) and isinstance(ends, list) and \
            len(starts) == len(values) == len(ends):
        return [(a / 1000.0, b / 1000.0) for a, b in zip(starts, ends)]
    return [((first + i) * period, (first + i + 1) * period) for i in range(len(values))]


def behind_spans(report):
    """[(start_ms, end_ms, samples)] where the sampler fell behind (samples
    that covered more than one and a half periods), from sampler_behind."""
    out = []
    for b in report.get("sampler_behind") or []:
        if isinstance(b, dict) and isinstance(b.get("start_ms"), NUM) and isinstance(b.get("end_ms"), NUM):
            out.append((float(b["start_ms"]), float(b["end_ms"]), b.get("samples", 1)))
    return out


def behind_svg(chart, report):
    """Hatched bands over the spans where the sampler fell behind."""
    out = []
    for start, end, samples in behind_spans(report):
        xa, xb = max(chart.x(start), chart.L), min(chart.x(end), chart.L + chart.pw)
        if xb <= xa:
            continue
        out.append('<rect class="sampler-behind" x="%s" y="%s" width="%s" height="%s"%s>'
                   '<title>the sampler fell behind, %s – %s: %s sample%s covered it</title></rect>'
                   % (num(xa), chart.T, num(xb - xa), chart.ph, attr(data_start_ms=start, data_end_ms=end),
                      esc(fmt_ms(start)), esc(fmt_ms(end)), fmt_int(samples), "" if samples == 1 else "s"))
    return out


def behind_note(report):
    """Where the sampler fell behind, in words ("" if it never did)."""
    spans = behind_spans(report)
    count = report.get("sampler_behind_samples")
    if not spans or not isinstance(count, int):
        return ""
    listed = ", ".join("%s – %s (%s sample%s)" % (fmt_ms(a), fmt_ms(b), fmt_int(n), "" if n == 1 else "s")
                       for a, b, n in spans[:12])
    more = len(spans) - 12 if len(spans) > 12 else 0
    return ('<p class="sampler-behind-note"%s>The sampler fell behind: %s sample%s covered more than one and a '
            'half periods (%s in all), hatched on the charts: %s%s. Each snapshot is drawn over the time it '
            'covers.</p>'
            % (attr(data_samples=count), fmt_int(count), "" if count == 1 else "s",
               esc(fmt_ms(report.get("sampler_behind_ms", 0))), esc(listed),
               esc(" and %d more" % more) if more else ""))


class Chart:
    """One timeline: time on x, lines on the left axis, bytes on the right."""
    W, H = 900, 316
    L, R, T, B = 92, 92, 18, 62

    def __init__(self, x_lo, x_hi, y_hi, log, line_bytes, y_lo=1.0):
        self.x_lo, self.x_hi = x_lo, x_hi if x_hi > x_lo else x_lo + 1
        self.log = log
        self.line_bytes = line_bytes
        self.pw = self.W - self.L - self.R
        self.ph = self.H - self.T - self.B
        if log:
            self.y_lo = max(y_lo, 1.0)
            self.y_hi = max(y_hi, self.y_lo * 10)
            self.y_lo = 10 ** math.floor(math.log10(self.y_lo))
            self.y_hi = 10 ** math.ceil(math.log10(self.y_hi))
        else:
            self.y_lo = 0.0
            self.y_hi = max(linear_ticks(max(y_hi, 1))[-1], 1)
            if self.y_hi < y_hi:
                self.y_hi = y_hi

    def x(self, ms):
        return self.L + (ms - self.x_lo) / (self.x_hi - self.x_lo) * self.pw

    def y(self, lines):
        if self.log:
            v = max(lines, self.y_lo)
            f = (math.log10(v) - math.log10(self.y_lo)) / (math.log10(self.y_hi) - math.log10(self.y_lo))
        else:
            f = (lines - self.y_lo) / (self.y_hi - self.y_lo)
        return self.T + self.ph * (1 - f)

    def in_range(self, lines):
        return lines <= self.y_hi * 1.0000001 and (not self.log or lines >= self.y_lo)

    def axes(self, x_label, left_label="lines (64-byte cache lines)", right_label="bytes"):
        out = []
        x0, x1, y0, y1 = self.L, self.L + self.pw, self.T, self.T + self.ph
        out.append('<rect class="plot-bg" x="%s" y="%s" width="%s" height="%s"/>'
                   % (x0, y0, self.pw, self.ph))
        # Left axis: lines.
        if self.log:
            left = [10 ** k for k in range(int(round(math.log10(self.y_lo))),
                                           int(round(math.log10(self.y_hi))) + 1)]
        else:
            left = [t for t in linear_ticks(self.y_hi) if t <= self.y_hi]
        for t in left:
            y = self.y(t)
            out.append('<line class="grid" x1="%s" x2="%s" y1="%s" y2="%s"/>' % (x0, x1, num(y), num(y)))
            out.append('<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>'
                       % (x0 - 6, num(y + 4), esc(fmt_int(t))))
        # Right axis: bytes at round binary values.
        hi_bytes = self.y_hi * self.line_bytes
        if self.log:
            right = []
            v = self.line_bytes
            while v <= hi_bytes:
                if v >= self.y_lo * self.line_bytes:
                    right.append(v)
                v *= 16
        else:
            right = byte_ticks(hi_bytes)
        for b in right:
            y = self.y(b / float(self.line_bytes))
            out.append('<line class="tickmark" x1="%s" x2="%s" y1="%s" y2="%s"/>' % (x1, x1 + 5, num(y), num(y)))
            out.append('<text class="tick" x="%s" y="%s">%s</text>' % (x1 + 8, num(y + 4), esc(fmt_bytes(b))))
        # Time axis.
        span = self.x_hi - self.x_lo
        for t in time_ticks(self.x_lo, self.x_hi):
            x = self.x(t)
            out.append('<line class="tickmark" x1="%s" x2="%s" y1="%s" y2="%s"/>' % (num(x), num(x), y1, y1 + 5))
            out.append('<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>'
                       % (num(x), y1 + 18, esc(fmt_tick_time(t, span))))
        out.append('<line class="axis" x1="%s" x2="%s" y1="%s" y2="%s"/>' % (x0, x1, y1, y1))
        out.append('<line class="axis" x1="%s" x2="%s" y1="%s" y2="%s"/>' % (x0, x0, y0, y1))
        out.append('<line class="axis" x1="%s" x2="%s" y1="%s" y2="%s"/>' % (x1, x1, y0, y1))
        out.append('<text class="axis-label" x="%s" y="%s" text-anchor="middle">%s</text>'
                   % (num(x0 + self.pw / 2), self.H - 6, esc(x_label)))
        out.append('<text class="axis-label" transform="translate(16 %s) rotate(-90)" text-anchor="middle">%s</text>'
                   % (num(y0 + self.ph / 2), esc(left_label)))
        out.append('<text class="axis-label" transform="translate(%s %s) rotate(90)" text-anchor="middle">%s</text>'
                   % (self.W - 12, num(y0 + self.ph / 2), esc(right_label)))
        return out

    def step_path(self, spans, values):
        pts = []
        for (t0, t1), v in zip(spans, values):
            pts.append((self.x(t0), self.y(v)))
            pts.append((self.x(t1), self.y(v)))
        line = "M" + " L".join("%s %s" % (num(a), num(b)) for a, b in pts)
        base = self.T + self.ph
        area = line + " L%s %s L%s %s Z" % (num(pts[-1][0]), base, num(pts[0][0]), base)
        return line, area


def time_axis_label(report):
    # sample_clock: the sampler's clock, wall time or the process's CPU time.
    if str(report.get("sample_clock", "")).lower() == "cpu":
        return "process CPU time (all threads) since the sampler started"
    return "time since the sampler started"


FIT_COLOURS = {1: "#1a9850", 2: "#91cf60", 3: "#fee08b", 4: "#fdae61", 0: "#d73027"}


def fit_level_of(report, lines):
    """The level of the smallest data cache that holds `lines`; 0 if none."""
    for c in data_caches(report):
        if lines * report["cache_line_size"] <= c["size_bytes"]:
            return c["level"]
    return 0


def snapshot_fits(report, level):
    """Per kept snapshot, the cache level it fits (0: none): the report's
    `fits_level` list when it has one, else computed from `caches`."""
    given = level.get("fits_level")
    if isinstance(given, list) and len(given) == len(level["lines"]) and \
            all(isinstance(v, int) for v in given):
        return given
    return [fit_level_of(report, v) for v in level["lines"]]


def fit_legend(report):
    items = [(FIT_COLOURS.get(c["level"], "#888"), "fits %s" % cache_label(c), "box") for c in data_caches(report)]
    items.append((FIT_COLOURS[0], "fits no cache", "box"))
    return legend_html(items)


def time_range(reports):
    """[first, last] ms covered by the kept snapshots of all levels and by
    the phases, up to the report (run_ms), so that the charts of every level
    share one time axis with the phases."""
    spans = [s for r in reports for l in r["levels"] if l["lines"] for s in level_spans(l)]
    if not spans:
        return 0, 1
    lo, hi = min(a for a, _ in spans), max(b for _, b in spans)
    for r in reports:
        if isinstance(r.get("run_ms"), NUM) and not isinstance(r.get("run_ms"), bool):
            hi = max(hi, float(r["run_ms"]))
        for _, start, end in phase_times(r):
            hi = max(hi, end if end is not None else start)
    return lo, hi


def timeline_svg(report, level, log, compare=None):
    """SVG of one level; `compare` adds a second report's level (diff)."""
    first, period, values = level_series(level)
    series = [("before" if compare else "run", level_spans(level), values)]
    if compare:
        series = [("before", level_spans(level), values)]
        series.append(("after", level_spans(compare[1]), compare[1]["lines"]))
    x_lo, x_hi = time_range([report] + ([compare[0]] if compare else []))
    y_hi = max(max(s[2]) for s in series if s[2])
    positive = [v for s in series for v in s[2] if v > 0]
    caches = data_caches(report) if not compare else []
    y_all = y_hi
    y_low = min(positive) if positive else 1
    if log and caches:
        # The log chart shows every cache level with the data.
        cache_lines = [c["size_bytes"] / float(report["cache_line_size"]) for c in caches]
        y_all = max([y_hi] + cache_lines)
        y_low = min([y_low] + cache_lines)
    chart = Chart(x_lo, x_hi, y_all * (1.0 if log else 1.08), log, report["cache_line_size"], y_low)
    out = ['<svg class="timeline %s" %s viewBox="0 0 %d %d" role="img">'
           % ("scale-log" if log else "scale-linear",
              attr(data_level=level["level"], data_scale="log" if log else "linear"),
              chart.W, chart.H)]
    out.append("<title>working set per %s snapshot, level %d%s</title>"
               % (esc(fmt_ms(period)), level["level"], ", log scale" if log else ""))
    out += chart.axes(time_axis_label(report))
    if not compare:
        out += behind_svg(chart, report)
    # Phases: shaded spans and a marker at each start.
    for i, (p, start, end) in enumerate(phase_times(report) if not compare else []):
        if end is not None and end > start:
            xa, xb = max(chart.x(start), chart.L), min(chart.x(end), chart.L + chart.pw)
            if xb > xa:
                out.append('<rect class="phase-span phase-%d" x="%s" y="%s" width="%s" height="%s"/>'
                           % (i % 2, num(xa), chart.T, num(xb - xa), chart.ph))
        if chart.x_lo <= start <= chart.x_hi:
            x = chart.x(start)
            out.append('<g class="phase-marker"%s><line x1="%s" x2="%s" y1="%s" y2="%s"/>'
                       '<text x="%s" y="%s">%s</text><title>phase %s starts at %s: %s lines (%s)</title></g>'
                       % (attr(data_name=p.get("name", "")), num(x), num(x), chart.T, chart.T + chart.ph,
                          num(x + 3), chart.T + 12, esc(p.get("name", "")),
                          esc(p.get("name", "")), esc(fmt_ms(start)), esc(fmt_int(p["lines"])),
                          esc(fmt_bytes(p["lines"] * report["cache_line_size"]))))
    colours = {"run": "#1f5fa8", "before": "#1f5fa8", "after": "#d55e00"}
    for name, s_spans, s_values in series:
        if not s_values:
            continue
        line, area = chart.step_path(s_spans, s_values)
        out.append('<g class="series series-%s">' % name)
        if not compare:
            out.append('<path class="area" d="%s" fill="%s"/>' % (area, colours[name]))
        out.append('<path class="step" d="%s" stroke="%s"/>' % (line, colours[name]))
        for (t0, t1), v in zip(s_spans, s_values):
            out.append('<circle class="snap" cx="%s" cy="%s" r="2.4" fill="%s"%s><title>%s%s – %s: %s lines (%s)</title></circle>'
                       % (num(chart.x((t0 + t1) / 2.0)), num(chart.y(v)), colours[name],
                          attr(data_lines=v, data_start_ms=t0, data_end_ms=t1),
                          (name + " run, ") if compare else "",
                          esc(fmt_ms(t0)), esc(fmt_ms(t1)), esc(fmt_int(v)),
                          esc(fmt_bytes(v * report["cache_line_size"]))))
        out.append("</g>")
    # Under the time axis, which cache each snapshot fits.
    if caches:
        y_strip = chart.T + chart.ph + 23
        out.append('<text class="tick small" x="%s" y="%s" text-anchor="end">fits</text>'
                   % (chart.L - 6, y_strip + 7))
        for (t0, t1), v, fit in zip(level_spans(level), values, snapshot_fits(report, level)):
            xa, xb = chart.x(t0), chart.x(t1)
            name = ("L%d" % fit) if fit else "no cache"
            out.append('<rect class="fit" x="%s" y="%s" width="%s" height="8" fill="%s"%s><title>%s – %s: fits %s</title></rect>'
                       % (num(xa), y_strip, num(max(xb - xa, 0.5)), FIT_COLOURS.get(fit, "#888"),
                          attr(data_fit=fit), esc(fmt_ms(t0)), esc(fmt_ms(t1)), esc(name)))
    # Caches as horizontal lines; those above the chart are named at the top.
    above = []
    for c in caches:
        lines = c["size_bytes"] / float(report["cache_line_size"])
        label = "%s %s" % (cache_label(c), fmt_bytes(c["size_bytes"]))
        if chart.in_range(lines):
            y = chart.y(lines)
            out.append('<g class="cache-line"%s><line x1="%s" x2="%s" y1="%s" y2="%s"/>'
                       '<text x="%s" y="%s" text-anchor="end">%s</text><title>%s cache: %s = %s lines%s</title></g>'
                       % (attr(data_level=c["level"], data_bytes=c["size_bytes"]), chart.L, chart.L + chart.pw,
                          num(y), num(y), chart.L + chart.pw - 4, num(y - 4), esc(label), esc(cache_label(c)),
                          esc(fmt_bytes(c["size_bytes"])), esc(fmt_int(lines)),
                          (", " + cache_sharing(c)) if cache_sharing(c) else ""))
        else:
            above.append(label)
    if above:
        out.append('<text class="caches-above" x="%s" y="%s" text-anchor="end">above the chart: %s ↑</text>'
                   % (chart.L + chart.pw, chart.T - 5, esc(", ".join(above))))
    out.append("</svg>")
    return "".join(out)


KIND_COLOURS = {"heap": "#0072B2", "global": "#009E73", "stack": "#E69F00",
                "mapping": "#CC79A7", "other": "#999999", "unknown": "#999999"}


def objects_bars_svg(objects, line_bytes, total_lines, css_class="objects-chart"):
    """Horizontal bars, one per data structure, longest first."""
    objs = sorted(objects, key=lambda o: -o["lines"])
    longest = max([o["lines"] for o in objs] + [1])
    row, label_w, bar_w = 24, 330, 420
    h = row * len(objs) + 8
    out = ['<svg class="%s" viewBox="0 0 %d %d" role="img">' % (css_class, label_w + bar_w + 170, h)]
    for i, (o, (kind, label)) in enumerate(zip(objs, object_labels(objs))):
        y = 4 + i * row
        w = max(bar_w * o["lines"] / float(longest), 1)
        share = (100.0 * o["lines"] / total_lines) if total_lines else 0
        text = label if len(label) <= 44 else label[:43] + "…"
        out.append('<g class="object-bar"%s><text class="bar-label" x="%d" y="%d" text-anchor="end">%s</text>'
                   '<rect x="%d" y="%d" width="%s" height="%d" fill="%s"/>'
                   '<text class="bar-value" x="%s" y="%d">%s lines · %s · %.1f%%</text>'
                   '<title>%s %s: %s lines (%s)</title></g>'
                   % (attr(data_kind=kind, data_name=label, data_lines=o["lines"]),
                      label_w - 8, y + 15, esc("%s %s" % (kind, text)),
                      label_w, y + 3, num(w), row - 8, KIND_COLOURS.get(kind, "#999"),
                      num(label_w + w + 6), y + 15, esc(fmt_int(o["lines"])),
                      esc(fmt_bytes(o["lines"] * line_bytes)), share,
                      esc(kind), esc(label), esc(fmt_int(o["lines"])), esc(fmt_bytes(o["lines"] * line_bytes))))
    out.append("</svg>")
    return "".join(out)


def objects_table(objects, report, total_lines):
    rows = []
    objs = sorted(objects, key=lambda o: -o["lines"])
    for o, (kind, label) in zip(objs, object_labels(objs)):
        share = (100.0 * o["lines"] / total_lines) if total_lines else 0
        rows.append("<tr><td>%s</td><td>%s%s</td><td class=num>%s</td><td class=num>%s</td>"
                    "<td class=num>%.1f%%</td>%s</tr>"
                    % (esc(kind), esc(label), stack_html(o.get("alloc_stack") or []),
                       esc(fmt_int(o["lines"])), esc(fmt_bytes(o["lines"] * report["cache_line_size"])),
                       share, fit_cell(report, o["lines"])))
    return ('<table class="objects"><tr><th>kind</th><th>data structure</th><th>lines</th><th>bytes</th>'
            '<th>of the total</th>%s</tr>%s</table>' % (fit_header(report), "".join(rows)))


def level_name(level, report):
    return "level %d (%s snapshots)" % (level["level"], fmt_ms(level["period_ms"]))


WS_KNOWN = {"tool", "schema_version", "pid", "executable", "cache_line_size", "total_lines",
            "total_bytes", "regions", "sample_period_ms", "samples", "snapshot_step",
            "snapshot_history", "levels", "caches", "objects", "objects_rest", "phases",
            "fits_level", "peak_snapshot_lines", "sample_clock", "sampler_cpu_ms",
            "snapshot_budget", "exact_snapshots", "reused_lines", "reused_fits_level",
            "reused_sampled_fraction", "timeline", "reused_lines_low", "reused_lines_high", "run_ms",
            "sampler_behind", "sampler_behind_samples", "sampler_behind_ms", "miss_ratio_curve"}


def estimated_note(report, levels):
    """What the estimated snapshots are (docs/WorkingSet.md, "Exact and
    estimated figures"), or "" when every snapshot is exact. The relative
    error is that of the snapshots that counted at least 3/4 of the budget's
    lines (the others were taken while the sampled share adapted to a
    shrinking working set)."""
    budget = report.get("snapshot_budget")
    budget = budget if isinstance(budget, int) else 0
    fractions, errors = [], []
    for l in levels:
        for n, f, e in zip(l["lines"], l.get("sampled_fraction") or [], l.get("std_error") or []):
            if isinstance(f, (int, float)) and f < 1:
                fractions.append(f)
                if n and n * f >= budget * 3 / 4:
                    errors.append(100.0 * e / n)
    if not fractions:
        return ""
    return ('<p class="muted">Peaks marked ~ are estimates, as are %d of the snapshots: more lines were '
            'touched per period than the snapshot budget, so they were counted on a fixed 1/%d of the '
            'lines at the least (standard error at most %.2f%% once the share has adapted). Totals, '
            'data structures and phases are exact; <code>ESAN_OPTIONS=exact_snapshots=1</code> counts '
            'every snapshot.</p>'
            % (len(fractions), round(1 / min(fractions)), max(errors + [0.0])))


def regions_svg(report):
    regions = report["regions"]
    total = sum(v for v in regions.values() if isinstance(v, int)) or 1
    x = 0.0
    width = 700
    out = ['<svg class="regions-chart" viewBox="0 0 %d 34" role="img"><title>the total by kind of memory</title>' % width]
    for name, v in regions.items():
        if not isinstance(v, int) or v <= 0:
            continue
        w = width * v / float(total)
        out.append('<rect class="region"%s x="%s" y="2" width="%s" height="30" fill="%s"><title>%s: %s lines (%s)</title></rect>'
                   % (attr(data_region=name, data_lines=v), num(x), num(max(w, 1)),
                      KIND_COLOURS.get({"globals": "global"}.get(name, name), "#999"), esc(name),
                      esc(fmt_int(v)), esc(fmt_bytes(v * report["cache_line_size"]))))
        x += w
    out.append("</svg>")
    return "".join(out)


def render_working_set(report, idx):
    lb = report["cache_line_size"]
    total = report["total_lines"]
    out = []
    out.append('<section class="report working-set" id="report-%d"%s>' % (idx, attr(data_pid=report["pid"])))
    out.append("<h2>Working set · %s <span class=muted>(pid %d)</span></h2>"
               % (esc(report["executable"]), report["pid"]))
    levels = report["levels"]
    peak = max([l["peak_lines"] for l in levels] + [0])
    cards = [("total working set", "%s lines" % fmt_int(total), fmt_bytes(total * lb),
              "every distinct 64-byte line the program touched during the run", "total-lines", total),
             ("largest snapshot", "%s lines" % fmt_int(peak), fmt_bytes(peak * lb),
              "the most lines touched within one snapshot period", "peak-lines", peak),
             ("samples", fmt_int(report.get("samples", 0)), "every %s" % fmt_ms(report["sample_period_ms"]),
              "the sampler's snapshots at the finest level", "samples", report.get("samples", 0))]
    sampler_ms = report.get("sampler_cpu_ms")
    if isinstance(sampler_ms, (int, float)):
        cards.append(("sampler CPU time", fmt_ms(sampler_ms), "the sampler thread's own",
                      "CPU time the working-set sampler itself used (not the program's)",
                      "sampler-cpu-ms", sampler_ms))
    out.append('<div class="cards">')
    for title, big, small, hint, key, value in cards:
        out.append('<div class="card"%s><div class="card-title">%s</div><div class="big">%s</div>'
                   '<div>%s</div><div class="hint">%s</div></div>'
                   % (attr(data_key=key, data_value=value), esc(title), esc(big), esc(small), esc(hint)))
    out.append("</div>")
    verdict = fit_verdict(report, total)
    if verdict:
        out.append('<p class="verdict fit-%s">The total working set (%s) %s.</p>'
                   % (verdict[0], esc(fmt_bytes(total * lb)), esc(verdict[1])))

    # Regions.
    out.append("<h3>By kind of memory</h3>")
    out.append(regions_svg(report))
    out.append(legend_html([(KIND_COLOURS.get({"globals": "global"}.get(k, k), "#999"),
                             "%s: %s (%s)" % (k, fmt_lines(v), fmt_bytes(v * lb)), "box")
                            for k, v in report["regions"].items() if isinstance(v, int)]))

    # Caches.
    caches = report.get("caches")
    out.append("<h3>This machine's caches</h3>")
    if caches:
        rows = "".join('<tr%s><td>L%d</td><td>%s</td><td class=num>%s</td><td class=num>%s</td><td>%s</td></tr>'
                       % (attr(data_level=c["level"]), c["level"], esc(c.get("type", "")),
                          esc(fmt_bytes(c["size_bytes"])), esc(fmt_int(c["size_bytes"] // lb)),
                          esc(cache_sharing(c)))
                       for c in caches)
        out.append('<table class="caches"><tr><th>level</th><th>type</th><th>size</th><th>lines</th>'
                   '<th>shared</th></tr>%s</table>' % rows)
    else:
        out.append('<p class="muted">The report has no cache sizes (key <code>caches</code>); '
                   'the timelines show no cache lines.</p>')

    # Timelines.
    with_data = [l for l in levels if l["lines"]]
    without = [l for l in levels if not l["lines"]]
    out.append("<h3>Working set over time</h3>")
    out.append('<p class="explain">Each level keeps snapshots of a different length: a step is the number '
               'of distinct cache lines touched during one snapshot (left axis, in lines; right axis, '
               'the same in bytes), drawn over the time it covers on the sampler\'s clock, the axis of the '
               'phases too. A late sample covers the time since the one before, and a phase boundary ends '
               'the snapshot of every level. Levels with longer periods show longer runs at a coarser grain. '
               'Hover a point for its numbers.</p>')
    out.append(behind_note(report))
    legend = [("#1f5fa8", "lines touched per snapshot", "line")]
    if data_caches(report):
        legend.append(("#b03030", "cache size (data/unified)", "dash"))
    if phase_times(report):
        legend.append(("#6a3d9a", "phase start", "dash"))
    if behind_spans(report):
        legend.append(("#999999", "the sampler fell behind", "box"))
    out.append(legend_html(legend))
    if data_caches(report):
        out.append(fit_legend(report))
    for level in with_data:
        dropped, _, values = level_series(level)
        out.append('<figure class="level"%s><figcaption><b>%s</b> — %s snapshots taken, %s shown%s; '
                   'peak %s lines (%s)%s</figcaption>'
                   % (attr(data_level=level["level"]), esc(level_name(level, report)),
                      fmt_int(level["taken"]), fmt_int(len(values)),
                      (" (the %s oldest were dropped)" % fmt_int(dropped)) if dropped else "",
                      esc(fmt_int(level["peak_lines"])), esc(fmt_bytes(level["peak_lines"] * lb)),
                      ("; " + fit_verdict(report, level["peak_lines"])[1]) if fit_verdict(report, level["peak_lines"]) else ""))
        out.append(timeline_svg(report, level, False))
        out.append(timeline_svg(report, level, True))
        out.append("</figure>")
    if not with_data:
        out.append('<p class="muted">No snapshots: the run ended before the first sample '
                   '(sample period %s) or sampling was off.</p>' % esc(fmt_ms(report["sample_period_ms"])))
    if without and with_data:
        out.append('<p class="muted">No snapshot yet at %s: the run was shorter than their periods.</p>'
                   % esc(", ".join(level_name(l, report) for l in without)))
    rows = "".join('<tr%s><td>%d</td><td class=num>%s</td><td class=num>%s</td><td class=num>%s</td>'
                   '<td class=num>%s</td><td class=num>%s</td>%s</tr>'
                   % (attr(data_level=l["level"]), l["level"], esc(fmt_ms(l["period_ms"])), esc(fmt_int(l["taken"])),
                      esc(fmt_int(len(l["lines"]))),
                      ("~" if (l.get("peak_sampled_fraction") or 1) < 1 else "") + esc(fmt_int(l["peak_lines"])),
                      esc(fmt_bytes(l["peak_lines"] * lb)), fit_cell(report, l["peak_lines"]))
                   for l in levels)
    out.append('<table class="levels"><tr><th>level</th><th>snapshot period</th><th>taken</th><th>kept</th>'
               '<th>peak lines</th><th>peak bytes</th>%s</tr>%s</table>' % (fit_header(report, "peak fits"), rows))
    out.append(estimated_note(report, levels))
    level_known = {"level", "period_ms", "taken", "peak_lines", "lines", "peak_fits_level", "fits_level",
                   "estimated", "sampled_fraction", "std_error", "peak_sampled_fraction", "peak_std_error",
                   "start_us", "end_us"}
    for l in levels:
        extra = extra_keys_html(l, level_known)
        if extra:
            out.append(extra.replace("More keys in this report", "More keys of level %d" % l["level"]))

    # Phases.
    phases = report.get("phases")
    if phases:
        out.append("<h3>Phases</h3>")
        out.append(objects_bars_svg([{"kind": "phase", "name": p.get("name") or "(unnamed)", "lines": p["lines"]}
                                     for p in phases], lb, total, "phases-chart"))
        rows = []
        for p in phases:
            tops = sorted(p.get("objects") or [], key=lambda o: -o["lines"])[:5]
            top = "; ".join("%s %s: %s lines" % (object_label(o) + (fmt_int(o["lines"]),)) for o in tops)
            times = ""
            if isinstance(p.get("start_ms"), NUM):
                times = fmt_ms(p["start_ms"])
                if isinstance(p.get("end_ms"), NUM):
                    times += " – " + fmt_ms(p["end_ms"])
            name = p.get("name", "")
            if p.get("open") is True:
                name += " (still running at the report)"
            rows.append('<tr class="phase"%s><td>%s</td><td>%s</td><td class=num>%s</td><td class=num>%s</td>%s<td>%s</td></tr>'
                        % (attr(data_name=p.get("name", ""), data_lines=p["lines"]), esc(name),
                           esc(times), esc(fmt_int(p["lines"])), esc(fmt_bytes(p["lines"] * lb)),
                           fit_cell(report, p["lines"]), esc(top)))
        out.append('<table class="phases"><tr><th>phase</th><th>time</th><th>lines</th><th>bytes</th>'
                   '%s<th>top data structures</th></tr>%s</table>' % (fit_header(report), "".join(rows)))
        for p in phases:
            if p.get("objects"):
                out.append('<details class="phase-objects"><summary>Phase %s by data structure</summary>%s</details>'
                           % (esc(p.get("name", "")),
                              objects_bars_svg(p["objects"], lb, p["lines"] or 1, "phase-objects-chart")))

    # Data structures over time, reused or streamed.
    from . import working_set_structures
    out.append(working_set_structures.render(report))

    # Data structures.
    objects = report.get("objects")
    if objects:
        out.append("<h3>By data structure</h3>")
        out.append('<p class="explain">Lines of the total working set in each heap allocation site, global, '
                   'thread stack and mapped file, largest first.</p>')
        out.append(objects_bars_svg(objects, lb, total))
        out.append(legend_html([(c, k, "box") for k, c in KIND_COLOURS.items()
                                if any(o.get("kind") == k for o in objects)]))
        out.append(objects_table(objects, report, total))
        rest = report.get("objects_rest")
        if isinstance(rest, dict) and rest.get("objects"):
            out.append('<p class="objects-rest">and %s more data structure%s: %s (%s)</p>'
                       % (esc(fmt_int(rest["objects"])), "" if rest["objects"] == 1 else "s",
                          esc(fmt_lines(rest.get("lines", 0))), esc(fmt_bytes(rest.get("lines", 0) * lb))))

    # Miss-ratio curves.
    from . import miss_ratio_page
    out.append(miss_ratio_page.render(report))

    out.append('<p class="settings muted">sample period %s · snapshot step %s · history %s snapshots per level · '
               'cache line %d bytes</p>' % (esc(fmt_ms(report["sample_period_ms"])),
                                           esc(report.get("snapshot_step", "?")),
                                           esc(report.get("snapshot_history", "?")), lb))
    out.append(extra_keys_html(report, WS_KNOWN))
    out.append("</section>")
    return "\n".join(out)
