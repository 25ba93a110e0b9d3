"""efsan-view: the HTML document around the sections.

Owns: the one self-contained page: its head (a Content-Security-Policy that
forbids fetching anything, so the page opens from disk offline; the inline
style and script, read from page.css and page.js), title, header, log-scale
switch and footer; and the page of one or more reports, a section each with a
list of them at the top.
Does not own: the sections (working_set_page.py, cache_frag_page.py,
diff.py), nor writing the file (efsan_view.py).
"""

import os
from importlib import resources

from .reports import SCHEMA_VERSION, _where
from .formatting import esc
from .working_set_page import render_working_set
from .cache_frag_page import render_cache_frag


def _asset(name):
    """A file of the package as the page takes it: its opening comment says
    what the file owns, for its readers, and stays out of the page."""
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return text[text.index("*/") + 2:]


CSS = _asset("page.css")
SCRIPT = _asset("page.js")


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
