"""efsan_viewer: the parts of efsan-view, the viewer of EfficiencySanitizer's
JSON reports. The command itself (its options, where it writes, its exit
status) is compiler-rt/lib/efsan/scripts/efsan_view.py; this package does the
work it asks for. Python 3 standard library only.

  reports.py            reading and checking the JSON reports
  formatting.py         numbers, names and small HTML pieces the pages share
  working_set_page.py   the section of a page that draws a working-set report
  cache_frag_page.py    the section of a page that draws a cache-frag report
  page.py               the HTML document around the sections
  page.css, page.js     its style and script, put into the page by page.py
  diff.py               --diff: two reports of one tool, before and after
  perfetto_trace.py     --perfetto: working-set reports as Chrome trace events
  merge.py              --merge: the reports of a process tree as one (text,
                        JSON, page)
  version.py            efsan's version and git commit (written by the build,
                        cmake/EfsanVersion.cmake; not in the sources)

The build copies the package to share/efsan-view/efsan_viewer/, where
bin/efsan-view looks for it, and installs it there (scripts/CMakeLists.txt).
"""
