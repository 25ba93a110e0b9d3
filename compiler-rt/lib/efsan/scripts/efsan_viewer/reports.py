"""efsan-view: reading and checking the JSON reports.

Owns: the schema version and the tools the viewer reads (docs/JSONSchema.md);
reading a file of one or more JSON documents, or standard input; checking
every key the pages use, with a one-line error (InputError) that names the
file, the report and the place; picking the one report of a process for
--diff.
Does not own: what a report looks like drawn (working_set_page.py,
cache_frag_page.py, diff.py, perfetto_trace.py), nor the command line, the
output file and the exit status (efsan_view.py).
"""

import json
import sys


SCHEMA_VERSION = 5
# Older versions read as version 5: version 3 added working-set snapshots
# that may be estimates (flagged by new keys), version 4 the struct field
# heat "not_seen" and address_escapes; reports without them are exact and
# have no such field. Version 5 prices a cache-frag prediction of a layout
# the run did not have as if it happened (impact.hypothetical,
# impact.run_seconds); without those keys a finding's share is of the run.
READABLE_VERSIONS = (2, 3, 4, 5)
TOOLS = ("working-set", "cache-frag")
PROG = "efsan-view"


class InputError(Exception):
    """A report the viewer cannot read; the message is one line."""


def _where(path):
    return "<stdin>" if path == "-" else path


def read_documents(path):
    """All JSON documents in the file, in order (whitespace between them)."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (_where(path), e.strerror or e))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError("%s: not JSON (not UTF-8 text)" % _where(path))
    decoder = json.JSONDecoder()
    docs = []
    pos = 0
    while True:
        while pos < len(text) and text[pos] in " \t\r\n":
            pos += 1
        if pos == len(text):
            break
        try:
            doc, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            raise InputError("%s: not JSON: %s at line %d column %d"
                             % (_where(path), e.msg, e.lineno, e.colno))
        docs.append(doc)
    if not docs:
        raise InputError("%s: empty: no JSON report in it" % _where(path))
    return docs


def _need(obj, key, types, where):
    if not isinstance(obj, dict) or key not in obj:
        raise InputError("%s: key '%s' missing" % (where, key))
    value = obj[key]
    # bool is an int in Python; a JSON true is never a count.
    if isinstance(value, bool) and bool not in types:
        ok = False
    else:
        ok = isinstance(value, types)
    if not ok:
        raise InputError("%s: key '%s' has the wrong type (%s)"
                         % (where, key, type(value).__name__))
    return value


NUM = (int, float)
INT = (int,)


def check_report(doc, where):
    """Checks the keys the viewer uses; raises InputError naming the first
    problem. Keys the viewer does not know are kept and shown as they are."""
    if not isinstance(doc, dict):
        raise InputError("%s: not a report (a JSON %s, not an object)"
                         % (where, type(doc).__name__))
    if "tool" not in doc:
        raise InputError("%s: not an efsan report (no key 'tool')" % where)
    tool = doc["tool"]
    if tool not in TOOLS:
        raise InputError("%s: unknown tool %s (efsan-view reads %s)"
                         % (where, json.dumps(tool), " and ".join(TOOLS)))
    version = doc.get("schema_version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise InputError("%s: schema_version %s, but efsan-view reads version %d"
                         % (where, json.dumps(version), SCHEMA_VERSION))
    _need(doc, "pid", INT, where)
    _need(doc, "executable", (str,), where)
    if tool == "working-set":
        _need(doc, "cache_line_size", INT, where)
        _need(doc, "total_lines", INT, where)
        _need(doc, "sample_period_ms", INT, where)
        _need(doc, "regions", (dict,), where)
        for i, level in enumerate(_need(doc, "levels", (list,), where)):
            w = "%s: levels[%d]" % (where, i)
            for key in ("level", "period_ms", "taken", "peak_lines"):
                _need(level, key, INT, w)
            lines = _need(level, "lines", (list,), w)
            if any(not isinstance(v, int) or isinstance(v, bool) for v in lines):
                raise InputError("%s: 'lines' holds a value that is not an integer" % w)
        for i, cache in enumerate(doc.get("caches") or []):
            w = "%s: caches[%d]" % (where, i)
            _need(cache, "level", INT, w)
            _need(cache, "size_bytes", INT, w)
        for i, obj in enumerate(doc.get("objects") or []):
            _need(obj, "lines", INT, "%s: objects[%d]" % (where, i))
        for i, phase in enumerate(doc.get("phases") or []):
            w = "%s: phases[%d]" % (where, i)
            _need(phase, "lines", INT, w)
            for j, obj in enumerate(phase.get("objects") or []):
                _need(obj, "lines", INT, "%s.objects[%d]" % (w, j))
    else:
        _need(doc, "sample_period", INT, where)
        _need(doc, "transfer_ns", INT, where)
        for i, f in enumerate(_need(doc, "findings", (list,), where)):
            w = "%s: findings[%d]" % (where, i)
            _need(f, "kind", (str,), w)
            _need(f, "line_address", INT, w)
            _need(f, "line_size", INT, w)
            _need(f, "invalidations", INT, w)
            _need(f, "threads", (list,), w)
            _need(_need(f, "impact", (dict,), w), "estimated_seconds", NUM, w + ".impact")
            _need(f["impact"], "share", NUM, w + ".impact")
            for r, rng in enumerate(_need(f, "line_map", (list,), w)):
                wr = "%s.line_map[%d]" % (w, r)
                _need(rng, "offset", INT, wr)
                _need(rng, "length", INT, wr)
                _need(rng, "readers", (list,), wr)
                _need(rng, "writers", (list,), wr)
        for i, s in enumerate(_need(doc, "structs", (list,), where)):
            w = "%s: structs[%d]" % (where, i)
            _need(s, "name", (str,), w)
            _need(s, "size", INT, w)
            for j, field in enumerate(_need(s, "fields", (list,), w)):
                for key in ("offset", "size", "count"):
                    _need(field, key, INT, "%s.fields[%d]" % (w, j))
    return doc


def load_reports(path):
    docs = read_documents(path)
    where = _where(path)
    for i, doc in enumerate(docs):
        check_report(doc, where if len(docs) == 1 else "%s: report %d" % (where, i + 1))
    return docs


def pick_report(path, pid):
    """The one report of a file (or the one of process `pid`)."""
    reports = load_reports(path)
    if pid is not None:
        chosen = [r for r in reports if r["pid"] == pid]
        if not chosen:
            raise InputError("%s: no report of pid %d (it has pids %s)"
                             % (_where(path), pid, ", ".join(str(r["pid"]) for r in reports)))
        reports = chosen
    if len(reports) > 1:
        raise InputError("%s: holds %d reports (pids %s); --diff compares two: pick one "
                         "with --before-pid/--after-pid"
                         % (_where(path), len(reports), ", ".join(str(r["pid"]) for r in reports)))
    return reports[0]
