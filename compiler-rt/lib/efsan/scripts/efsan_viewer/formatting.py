"""efsan-view: numbers, names and small pieces of HTML that the two pages,
the diff and the trace share.

Owns: numbers for people (lines, bytes, seconds, shares, changes); HTML
escaping, attributes and SVG coordinates; thread colours and names; legends;
source frames and allocation stacks, and the name of a data structure (a heap
block by where it was allocated); the table of report keys the viewer does
not draw.
Does not own: any section of a page (working_set_page.py,
cache_frag_page.py, diff.py) or the document around them (page.py).
"""

import html
import json
import os


def fmt_int(n):
    return "{:,}".format(int(n))


def fmt_lines(n):
    return "%s line%s" % (fmt_int(n), "" if n == 1 else "s")


def fmt_bytes(n):
    n = float(n)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            if unit == "B":
                return "%d B" % n
            text = ("%.1f" % n) if abs(n) < 100 else ("%.0f" % n)
            if text.endswith(".0"):
                text = text[:-2]
            return "%s %s" % (text, unit)
        n /= 1024.0


# Printed figures carry the digits they have, and the page prints each one
# as the text report does (efsan_cache_frag_findings.c's cf_format_duration,
# cf_format_percent, cf_round_3; docs/CacheFrag.md, "Figures"): times to
# three significant digits, shares in whole percents from 10% up and with
# one decimal below, estimated counts to three significant digits.


def round_3(n):
    """n (a non-negative integer) rounded half up to 3 significant digits."""
    n = int(n)
    scale = 1
    while n // scale >= 1000:
        scale *= 10
    if scale == 1:
        return n
    return (n + scale // 2) // scale * scale


def fmt_seconds(s):
    s = float(s)
    if s < 0:
        return "−" + fmt_seconds(-s)
    r = round_3(int(round(s * 1e9)))
    for unit, name in ((10 ** 9, "s"), (10 ** 6, "ms"), (10 ** 3, "us"), (1, "ns")):
        if r >= unit or unit == 1:
            break
    whole, rest = divmod(r, unit)
    if whole >= 100 or unit == 1:
        return "%d %s" % (whole, name)
    if whole >= 10:
        return "%d.%d %s" % (whole, rest // (unit // 10), name)
    return "%d.%02d %s" % (whole, rest // (unit // 100), name)


def fmt_ms(ms):
    return fmt_seconds(ms / 1000.0)


def fmt_share(x):
    """A share (a fraction of 1, as the JSON gives it to 6 decimals)."""
    ppm = int(round(float(x) * 1e6))
    if ppm < 0:
        return "−" + fmt_share(-x)
    tenths = (ppm + 500) // 1000
    if not ppm:
        return "0%"
    if not tenths:
        return "<0.1%"
    if tenths < 100:
        return "%d.%d%%" % (tenths // 10, tenths % 10)
    return "%d%%" % ((ppm + 5000) // 10000)


def fmt_estimate(n):
    """A count the report estimates, to 3 significant digits."""
    return fmt_int(round_3(n))


def fmt_delta(before, after, fmt=fmt_int):
    d = after - before
    sign = "+" if d > 0 else ("−" if d < 0 else "±")
    text = sign + fmt(abs(d))
    if before:
        text += " (%s%.1f%%)" % ("+" if d >= 0 else "−", abs(100.0 * d / before))
    return text


def esc(s):
    return html.escape(str(s), quote=True)


def attr(**kw):
    """Attributes from keywords; a trailing _ is dropped, _ becomes -."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        k = k.rstrip("_").replace("_", "-")
        out.append(' %s="%s"' % (k, esc(v)))
    return "".join(out)


def num(x):
    """A coordinate for SVG: short and exact enough."""
    return ("%.2f" % x).rstrip("0").rstrip(".")


# Thread colours: Okabe-Ito (tell-apart for colour-blind readers) then more.
THREAD_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00",
                  "#56B4E9", "#8C6D1F", "#7F3C8D", "#11A579", "#E73F74",
                  "#3969AC", "#F2B701"]
OTHERS_COLOUR = "#555555"


def thread_colour(t):
    return OTHERS_COLOUR if t < 0 else THREAD_COLOURS[t % len(THREAD_COLOURS)]


def thread_name(t):
    return "others" if t < 0 else "T%d" % t


def legend_html(items):
    """items: (css class or colour, text, kind) with kind 'line', 'dash', 'box'."""
    parts = []
    for swatch, text, kind in items:
        if kind == "box":
            parts.append('<span class="key"><span class="swatch box" style="background:%s"></span>%s</span>'
                         % (esc(swatch), esc(text)))
        else:
            parts.append('<span class="key"><span class="swatch %s" style="border-color:%s"></span>%s</span>'
                         % (kind, esc(swatch), esc(text)))
    return '<div class="legend">%s</div>' % "".join(parts)


def frame_text(frame):
    fn = frame.get("function") or "<unknown>"
    where = frame.get("file")
    if where:
        where = os.path.basename(where)
        if frame.get("line"):
            where += ":%d" % frame["line"]
        return "%s (%s)" % (fn, where)
    return fn


ALLOCATORS = {"malloc", "calloc", "realloc", "reallocarray", "free", "aligned_alloc", "memalign",
              "posix_memalign", "valloc", "pvalloc", "strdup", "strndup", "operator new",
              "operator new[]"}


def is_allocator_frame(frame):
    fn = str(frame.get("function") or "")
    bare = fn.split("(")[0].strip()
    return (bare in ALLOCATORS or bare.startswith("__interceptor_") or bare.startswith("___interceptor_")
            or bare.startswith("operator new") or bare.startswith("__efsan"))


def user_frames(stack):
    """The allocation stack from the first frame that is neither the allocator
    nor one of the program's allocation wrappers (the report marks those)."""
    for i, frame in enumerate(stack):
        if not is_allocator_frame(frame) and not frame.get("allocation_wrapper"):
            return stack[i:]
    return stack


def named_range_text(named):
    """A cache-frag object's "named_range" ({name, mapping, ...}) as the
    report's text names it: '"Stats" in /dev/zero (deleted)'."""
    text = '"%s"' % named.get("name")
    if isinstance(named.get("mapping"), str):
        text += " in %s" % (named["mapping"] or "anonymous memory")
    return text


def object_label(obj):
    kind = obj.get("kind", "?")
    name = obj.get("name")
    stack = user_frames(obj.get("alloc_stack") or [])
    # A range the program named (__efsan_name_range): a working-set object's
    # name says so already; a cache-frag object in mapped memory is the
    # range, a heap block, global or stack is shown in it.
    named = obj.get("named_range")
    if isinstance(named, dict) and kind not in ("heap", "global", "stack"):
        return kind, "named range " + named_range_text(named)
    kind, label = _object_label(obj, kind, name, stack)
    if isinstance(named, dict):
        label += ' in named range "%s"' % named.get("name")
    return kind, label


def _object_label(obj, kind, name, stack):
    # A heap block is named by where it was allocated (the working-set
    # report's heap "name" is that frame with the full path).
    if kind == "heap" and stack:
        label = "allocated in " + frame_text(stack[0])
        if obj.get("allocations", 1) > 1:
            label += " (%d allocations at this address)" % obj["allocations"]
    elif name:
        label = str(name)
    elif kind == "stack" and "thread" in obj:
        label = "stack of %s" % thread_name(obj["thread"])
    elif kind == "heap" and isinstance(obj.get("size"), int):
        label = "block of %s" % fmt_bytes(obj["size"])
    else:
        label = "(unnamed)"
    return kind, label


def object_labels(objects):
    """object_label of each object; objects that would read alike (one
    allocation site reached from several callers: zstd's read and write
    pools both allocate in AIO_IOPool_createIoJob) each get the caller where
    its stack parts from the others': "... from AIO_ReadPool_create"."""
    labels = [object_label(o) for o in objects]
    alike = {}
    for i, label in enumerate(labels):
        alike.setdefault(label, []).append(i)
    out = list(labels)
    for (kind, label), group in alike.items():
        if len(group) < 2:
            continue
        stacks = [[f.get("function") for f in user_frames(objects[i].get("alloc_stack") or [])] for i in group]
        for i, stack in zip(group, stacks):
            others = [t for t in stacks if t is not stack]
            for depth in range(1, len(stack)):
                if any(len(t) <= depth or t[depth] != stack[depth] for t in others):
                    out[i] = (kind, "%s from %s" % (label, stack[depth] or "<unknown>"))
                    break
    return out


def stack_html(stack, limit=6):
    if not stack:
        return ""
    items = "".join("<li>%s%s</li>" % (esc(frame_text(f)),
                                       ' <span class="muted">(allocation wrapper)</span>'
                                       if f.get("allocation_wrapper") else "")
                    for f in stack[:limit])
    more = '<li class="muted">… %d more</li>' % (len(stack) - limit) if len(stack) > limit else ""
    return '<ol class="stack">%s%s</ol>' % (items, more)


def extra_keys_html(doc, known):
    """Keys this viewer does not draw, shown as they are so nothing is hidden."""
    extra = [k for k in doc if k not in known]
    if not extra:
        return ""
    rows = []
    for k in extra:
        v = doc[k]
        text = json.dumps(v) if not isinstance(v, str) else v
        if len(text) > 400:
            text = text[:400] + " …"
        rows.append("<tr><th>%s</th><td><code>%s</code></td></tr>" % (esc(k), esc(text)))
    return ('<details class="extra-keys"><summary>More keys in this report (%d)</summary>'
            '<table>%s</table></details>' % (len(extra), "".join(rows)))
