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
  efsan-view --merge DIR [-o merged.html|merged.json]
      the reports of a process tree (the directory its root names, or
      report files) as one: lines counted once, by process kind and data
      structure; findings and struct field usage summed. Text, JSON or HTML.

Reads the reports of ESAN_OPTIONS=report_format=json (docs/JSONSchema.md),
schema version 1; a file may hold several reports one after the other (a
program that forks writes one per process). Python 3 standard library only.

This file owns the command line: the options, where the result is written,
the one-line errors on stderr and the exit status. The work is done by the
package efsan_viewer/ (its __init__.py lists its files): reading and checking
the reports, the two pages, the diff, the trace, the page's style and script.
"""
import argparse
import json
import os
import sys

# The package beside this file in the source tree; in the build and where it
# is installed, in ../share/efsan-view (scripts/CMakeLists.txt).
sys.path.insert(1, os.path.join(os.path.dirname(os.path.realpath(__file__)),
                                os.pardir, "share", "efsan-view"))
from efsan_viewer.reports import PROG, InputError, load_reports, pick_report
from efsan_viewer.page import render_reports
from efsan_viewer.diff import render_diff
from efsan_viewer.perfetto_trace import perfetto_trace
from efsan_viewer.merge import load_inputs, merge, merged_text, merged_json, merged_page


class VersionAction(argparse.Action):
    """--version: efsan's version and git commit, which the build and the
    installation write into efsan_viewer/version.py (cmake/EfsanVersion.cmake)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print efsan's version and the git commit it was built from")

    def __call__(self, parser, namespace, values, option_string=None):
        try:
            from efsan_viewer.version import VERSION, GIT_COMMIT
        except ImportError:
            sys.stderr.write("%s: error: no version: this is efsan-view's source, "
                             "run the one the build or the installation made\n" % PROG)
            sys.exit(1)
        sys.stdout.write("%s: efsan version %s (git %s)\n" % (PROG, VERSION, GIT_COMMIT))
        sys.exit(0)


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
                "(ESAN_OPTIONS=report_format=json): an HTML page, a Perfetto trace, the difference of two runs, "
                "or a process tree's reports merged into one.",
                epilog="examples:\n  efsan-view report.json -o report.html\n"
                       "  efsan-view --perfetto report.json -o trace.json\n"
                       "  efsan-view --diff before.json after.json -o diff.html\n"
                       "  efsan-view --merge /tmp/efsan.prog.1234 -o merged.html",
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", metavar="REPORT.json",
                    help="JSON reports ('-' for standard input); a file may hold several, one after the other "
                         "(with --merge also directories)")
    ap.add_argument("--version", action=VersionAction)
    ap.add_argument("-o", "--output", metavar="FILE", help="where to write (default: standard output)")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--perfetto", action="store_true",
                      help="write Chrome trace-event JSON for ui.perfetto.dev instead of HTML")
    mode.add_argument("--diff", action="store_true", help="compare two reports: BEFORE.json AFTER.json")
    mode.add_argument("--merge", action="store_true",
                      help="merge the reports of a process tree: a directory of PID.json files (the one "
                           "the root's report names) or report files")
    ap.add_argument("--format", choices=("text", "json", "html"),
                    help="with --merge: what to write (default: html for -o *.html, json for -o *.json, "
                         "else text)")
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
        if args.format and not args.merge:
            ap.error("--format goes with --merge")
        if args.merge:
            fmt = args.format
            if not fmt:
                out = (args.output or "").lower()
                fmt = "html" if out.endswith((".html", ".htm")) else "json" if out.endswith(".json") else "text"
            items = load_inputs(args.reports)
            merged = merge(items)
            if fmt == "json":
                write_output(args.output, merged_json(merged))
            elif fmt == "html":
                write_output(args.output, merged_page(merged, args.reports))
            else:
                write_output(args.output, merged_text(merged))
            return 0
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
