"""efsan-view --merge: the reports of a process tree as one.

Owns: finding a run's reports (a directory of PID.json files, or report
files), refusing a set that is not one run of one tool; the merged working
set (lines counted once: a process's private lines are its own, a line of a
shared mapping is named by the mapping's device, inode and line in the file
and counted once however many processes touched it), by process kind and by
data structure; the merged cache-frag report (findings matched across
processes by object, kind and offset, and struct field usage, summed); the
merged report as text, JSON (docs/JSONSchema.md, "Merged reports") and an
HTML page.
Does not own: reading and checking one report (reports.py), a finding's
identity (diff.py), the document around the page (page.py), the command
line (efsan_view.py).
"""

import json
import os
import re

from .reports import InputError, _where, load_reports, SCHEMA_VERSION
from .formatting import (fmt_int, fmt_lines, fmt_bytes, fmt_seconds, fmt_share, esc, attr,
                         object_label, legend_html)
from .cache_frag_page import KIND_TEXT, finding_title, HEAT_COLOURS
from .diff import finding_identity
from .page import page

EXIT_REPORT = re.compile(r"^[0-9]+\.json$")


# ---------------------------------------------------------------- inputs

def _load(path):
    try:
        return load_reports(path)
    except InputError:
        # A text report is the usual mistake: say so rather than "not JSON".
        head = b""
        if path != "-":
            try:
                with open(path, "rb") as f:
                    head = f.read(64)
            except OSError:
                pass
        if re.match(rb"\s*==[0-9]+==", head):
            raise InputError("%s: a text report; --merge reads JSON reports (ESAN_OPTIONS=report_format=json; "
                             "the reports in a process tree's directory are JSON)" % _where(path))
        raise


def load_inputs(paths):
    """[(report, file)] of the directories' PID.json files (the reports at
    exit; PID.N.json, written while a process ran, are left out) and of
    the files named (but P.PID.N beside P.PID)."""
    items = []
    # log_path=P: P.PID.N, a report written while the process ran, goes
    # with P.PID, its report at exit, in a glob like P.*.
    given = set(paths)
    for path in paths:
        m = re.match(r"^(.*\.[0-9]+)\.[0-9]+$", path)
        if m and m.group(1) in given:
            continue
        if path != "-" and os.path.isdir(path):
            try:
                names = sorted((n for n in os.listdir(path) if EXIT_REPORT.match(n)),
                               key=lambda n: int(n.split(".")[0]))
            except OSError as e:
                raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
            if not names:
                raise InputError("%s: no reports (PID.json files) in it" % path)
            for n in names:
                p = os.path.join(path, n)
                items += [(r, p) for r in _load(p)]
        else:
            items += [(r, path) for r in _load(path)]
    check_one_run(items)
    return items


def check_one_run(items):
    first, first_src = items[0]
    for r, src in items[1:]:
        if r["tool"] != first["tool"]:
            raise InputError("%s is a %s report and %s a %s report: --merge combines the reports of one tool"
                             % (_where(first_src), first["tool"], _where(src), r["tool"]))
    roots = {}
    for r, src in items:
        tree = r.get("process_tree")
        if isinstance(tree, dict) and isinstance(tree.get("root_pid"), int):
            roots.setdefault(tree["root_pid"], src)
    if len(roots) > 1:
        (a, sa), (b, sb) = list(roots.items())[:2]
        raise InputError("%s is from the process tree of pid %d and %s from that of pid %d: "
                         "--merge combines the reports of one run" % (_where(sa), a, _where(sb), b))
    seen = {}
    for r, src in items:
        if r["pid"] in seen:
            raise InputError("pid %d has two reports (%s and %s): --merge takes each process's report at exit once"
                             % (r["pid"], _where(seen[r["pid"]]), _where(src)))
        seen[r["pid"]] = src
    if first["tool"] == "working-set":
        for r, src in items:
            if r["cache_line_size"] != first["cache_line_size"]:
                raise InputError("%s has %d-byte lines and %s %d-byte ones"
                                 % (_where(first_src), first["cache_line_size"], _where(src), r["cache_line_size"]))


def process_name(r):
    tree = r.get("process_tree")
    if isinstance(tree, dict) and isinstance(tree.get("name"), str) and tree["name"]:
        return tree["name"]
    return os.path.basename(r["executable"])


def process_entry(r, src):
    tree = r.get("process_tree") if isinstance(r.get("process_tree"), dict) else {}
    return {"pid": r["pid"], "name": process_name(r), "executable": r["executable"],
            "parent_pid": tree.get("parent_pid"), "forked": tree.get("forked"),
            "root": tree.get("root_pid") == r["pid"] if tree else None, "file": src}


def tree_of(items):
    for r, _ in items:
        tree = r.get("process_tree")
        if isinstance(tree, dict) and isinstance(tree.get("root_pid"), int):
            return {"root_pid": tree["root_pid"], "directory": tree.get("directory")}
    return None


# ---------------------------------------------------------------- working set

def _normalize(intervals):
    """Sorted, disjoint [start, end) pairs."""
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return out


def union_and_overlap(per_process):
    """Lines in at least one of the processes' interval lists, and lines in
    at least two."""
    events = []
    for intervals in per_process:
        for s, e in intervals:
            events.append((s, 1))
            events.append((e, -1))
    # At one position ends come first: [0, 4) and [4, 8) do not overlap.
    events.sort()
    union = overlap = depth = 0
    prev = None
    for x, d in events:
        if prev is not None and x > prev:
            if depth >= 1:
                union += x - prev
            if depth >= 2:
                overlap += x - prev
        depth += d
        prev = x
    return union, overlap


def _ranges_of(m, where):
    ranges = m.get("ranges")
    if not isinstance(ranges, list) or any(not isinstance(p, list) or len(p) != 2 or
                                           not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                                   for v in p) for p in ranges):
        raise InputError("%s: shared_mappings: 'ranges' is not a list of [start, length] pairs" % where)
    return [(s, s + n) for s, n in ranges]


def merge_working_set(items):
    line_size = items[0][0]["cache_line_size"]
    processes = []
    shared = {}        # (device, inode) -> mapping
    named_parts = {}   # (structure name, (device, inode)) -> each process's lines
    structures = {}    # (kind, name) -> structure
    rest_lines = 0
    regions = {}

    def structure(kind, name, o=None):
        s = structures.get((kind, name))
        if s is None:
            s = structures[(kind, name)] = {"kind": kind, "name": name, "processes": 0, "summed_lines": 0,
                                            "private": 0, "by_process_kind": {}, "pids": set(),
                                            "alloc_stack": (o or {}).get("alloc_stack")}
        return s

    for r, src in items:
        where = _where(src)
        kind = process_name(r)
        entry = process_entry(r, src)
        for k, v in r["regions"].items():
            if isinstance(v, int):
                regions[k] = regions.get(k, 0) + v
        own, own_named, shared_by_name, shared_lines = {}, {}, {}, 0
        for m in r.get("shared_mappings") or []:
            if not isinstance(m, dict) or not all(k in m for k in ("name", "device", "inode", "lines")):
                raise InputError("%s: shared_mappings: an entry without name, device, inode and lines" % where)
            key = (m["device"], m["inode"])
            ranges = _ranges_of(m, where)
            own.setdefault(key, []).extend(ranges)
            # A named part of a mapping is a structure of its own.
            own_named.setdefault((m["name"], key), []).extend(ranges)
            shared_by_name[m["name"]] = shared_by_name.get(m["name"], 0) + m["lines"]
            shared_lines += m["lines"]
            g = shared.setdefault(key, {"name": m.get("path", m["name"]), "device": m["device"],
                                        "inode": m["inode"], "summed_lines": 0, "by_pid": {}, "kinds": {}})
            g["summed_lines"] += m["lines"]
            g["kinds"][kind] = g["kinds"].get(kind, 0) + m["lines"]
        for key, intervals in own.items():
            shared[key]["by_pid"][r["pid"]] = (kind, _normalize(intervals))
        for name_key, intervals in own_named.items():
            named_parts.setdefault(name_key, []).append(_normalize(intervals))
        listed = set()
        for o in r.get("objects") or []:
            s = structure(o.get("kind", "?"), o.get("name", "?"), o)
            part = shared_by_name.get(s["name"], 0) if s["kind"] == "mapping" and (s["kind"], s["name"]) not in listed else 0
            s["summed_lines"] += o["lines"]
            s["private"] += max(0, o["lines"] - part)
            s["by_process_kind"][kind] = s["by_process_kind"].get(kind, 0) + o["lines"]
            s["pids"].add(r["pid"])
            listed.add((s["kind"], s["name"]))
        rest = (r.get("objects_rest") or {}).get("lines", 0)
        # A shared mapping among the process's other structures: out of its
        # rest, into a row of its own.
        for name, n in shared_by_name.items():
            if ("mapping", name) in listed:
                continue
            rest -= n
            s = structure("mapping", name)
            s["summed_lines"] += n
            s["by_process_kind"][kind] = s["by_process_kind"].get(kind, 0) + n
            s["pids"].add(r["pid"])
        rest_lines += max(0, rest)
        entry.update(total_lines=r["total_lines"], shared_lines=shared_lines,
                     private_lines=max(0, r["total_lines"] - shared_lines))
        processes.append(entry)

    def shared_figures(pred):
        """(union, overlap) of the shared mappings' lines over the processes
        pred accepts (pid, kind), all mappings; and by mapping."""
        total_u = total_o = 0
        by_key = {}
        for key, g in shared.items():
            lists = [iv for pid, (k, iv) in g["by_pid"].items() if pred(pid, k)]
            u, o = union_and_overlap(lists)
            by_key[key] = (u, o, len(lists))
            total_u += u
            total_o += o
        return total_u, total_o, by_key

    all_u, all_o, by_key = shared_figures(lambda pid, k: True)
    total = {"processes": len(processes),
             "summed_lines": sum(p["total_lines"] for p in processes),
             "lines": sum(p["private_lines"] for p in processes) + all_u,
             "shared_summed_lines": sum(p["shared_lines"] for p in processes),
             "shared_lines": all_u, "overlap_lines": all_o}

    kinds = []
    for kind in dict.fromkeys(p["name"] for p in processes):
        mine = [p for p in processes if p["name"] == kind]
        u, o, _ = shared_figures(lambda pid, k, kind=kind: k == kind)
        kinds.append({"name": kind, "processes": len(mine),
                      "summed_lines": sum(p["total_lines"] for p in mine),
                      "lines": sum(p["private_lines"] for p in mine) + u,
                      "shared_summed_lines": sum(p["shared_lines"] for p in mine),
                      "shared_lines": u, "overlap_lines": o})
    kinds.sort(key=lambda k: (-k["lines"], k["name"]))

    mappings = []
    for key, g in shared.items():
        u, o, n = by_key[key]
        mappings.append({"name": g["name"], "device": g["device"], "inode": g["inode"], "processes": n,
                         "summed_lines": g["summed_lines"], "lines": u, "overlap_lines": o,
                         "by_process_kind": g["kinds"]})
    mappings.sort(key=lambda m: (-m["lines"], m["name"], m["inode"]))

    rows = []
    for s in structures.values():
        u = o = 0
        if s["kind"] == "mapping":
            for (name, key), lists in named_parts.items():
                if name == s["name"]:
                    nu, no = union_and_overlap(lists)
                    u += nu
                    o += no
        rows.append({"kind": s["kind"], "name": s["name"], "processes": len(s["pids"]),
                     "summed_lines": s["summed_lines"], "lines": s["private"] + u, "overlap_lines": o,
                     "by_process_kind": s["by_process_kind"], "alloc_stack": s["alloc_stack"]})
    rows.sort(key=lambda s: (-s["lines"], s["kind"], s["name"]))

    return {"tool": "working-set", "schema_version": SCHEMA_VERSION, "merged": True,
            "process_tree": tree_of(items), "cache_line_size": line_size,
            "total": total, "regions_summed": regions,
            "by_process_kind": kinds, "structures": rows,
            "structures_rest": {"lines": rest_lines},
            "shared_mappings": mappings, "processes": processes}


# ---------------------------------------------------------------- cache-frag

def _heat(field_heats, count, busiest, judged):
    if count == 0 and field_heats and field_heats <= {"padding", "unused", "not_seen"}:
        # Not seen anywhere because the address escaped says the most.
        return next(h for h in ("not_seen", "padding", "unused") if h in field_heats)
    if not judged:
        return "too_few_samples"
    # As the runtime judges one report: hot from a tenth of the busiest
    # field, cold below a hundredth.
    if busiest and count * 10 >= busiest:
        return "hot"
    if count * 100 < busiest or not busiest:
        return "cold"
    return "warm"


def merge_cache_frag(items):
    processes = []
    run_cpu = gain_cpu = gain_wall = process_cpu = 0.0
    tool_cpu = {"sampled_path": 0.0, "transfer_measurement": 0.0, "polls_beyond_side_by_side": 0.0}
    counters = {k: 0 for k in ("hidden_findings", "suppressed_findings", "suppressed_structs")}
    groups = {}
    structs = {}
    for r, src in items:
        kind = process_name(r)
        entry = process_entry(r, src)
        gain = r.get("expected_gain") or {}
        run_cpu += r.get("run_cpu_seconds", 0) or 0
        process_cpu += r.get("process_cpu_seconds", 0) or 0
        for k, v in (r.get("tool_cpu_seconds") or {}).items():
            tool_cpu[k] = tool_cpu.get(k, 0) + (v or 0)
        gain_cpu += gain.get("cpu_seconds", 0) or 0
        gain_wall += gain.get("wall_seconds", 0) or 0
        for k in counters:
            counters[k] += r.get(k, 0) or 0
        entry.update(run_cpu_seconds=r.get("run_cpu_seconds", 0), findings=len(r["findings"]),
                     expected_gain_seconds=gain.get("cpu_seconds", 0))
        processes.append(entry)
        for f in r["findings"]:
            (who, predicted), offset = finding_identity(f)
            key = (f["kind"], who, predicted, offset)
            g = groups.get(key)
            if g is None:
                g = groups[key] = {"kind": f["kind"], "title": finding_title(f), "object": f.get("object"),
                                   "line_offset_in_object": offset, "processes": 0, "pids": [],
                                   "by_process_kind": {}, "invalidations": 0, "estimated_seconds": 0.0,
                                   "wall_seconds": 0.0, "fix": None, "_best": -1.0}
            g["processes"] += 1
            g["pids"].append(r["pid"])
            g["by_process_kind"][kind] = g["by_process_kind"].get(kind, 0) + 1
            g["invalidations"] += f["invalidations"]
            g["estimated_seconds"] += f["impact"]["estimated_seconds"]
            g["wall_seconds"] += f["impact"].get("wall_seconds", 0) or 0
            text = (f.get("fix") or {}).get("text") or f.get("suggestion")
            # The advice of the costliest instance, with its process.
            if f["impact"]["estimated_seconds"] > g["_best"]:
                g["_best"] = f["impact"]["estimated_seconds"]
                g["fix"] = {"pid": r["pid"], "text": text}
        for s in r["structs"]:
            m = structs.get(s["name"])
            if m is None:
                m = structs[s["name"]] = {"name": s["name"], "size": s["size"], "processes": 0, "accesses": 0,
                                          "sampled_accesses": 0, "judged": False, "fields": {}, "order": []}
            m["processes"] += 1
            m["accesses"] += s.get("accesses", 0)
            m["sampled_accesses"] += s.get("sampled_accesses", 0)
            m["judged"] = m["judged"] or s.get("layout_judged", True)
            for fld in s["fields"]:
                fk = (fld["offset"], fld["size"], fld.get("name"))
                mf = m["fields"].get(fk)
                if mf is None:
                    mf = m["fields"][fk] = {"index": fld.get("index"), "name": fld.get("name"),
                                            "offset": fld["offset"], "size": fld["size"],
                                            "type": fld.get("type"), "count": 0, "heats": set(),
                                            "address_escapes": False}
                    m["order"].append(fk)
                mf["count"] += fld["count"]
                mf["heats"].add(fld.get("heat"))
                mf["address_escapes"] = mf["address_escapes"] or bool(fld.get("address_escapes"))
    findings = []
    for g in groups.values():
        g.pop("_best")
        g["share"] = round(g["estimated_seconds"] / run_cpu, 6) if run_cpu else 0
        g["estimated_seconds"] = round(g["estimated_seconds"], 9)
        g["wall_seconds"] = round(g["wall_seconds"], 9)
        findings.append(g)
    findings.sort(key=lambda g: (-g["estimated_seconds"], g["title"]))
    out_structs = []
    for m in structs.values():
        fields = [m["fields"][k] for k in sorted(m["order"])]
        busiest = max([f["count"] for f in fields] + [0])
        out_fields = []
        for f in fields:
            heats = f.pop("heats")
            f["heat"] = _heat({h for h in heats if h}, f["count"], busiest, m["judged"])
            out_fields.append(f)
        out_structs.append({"name": m["name"], "size": m["size"], "processes": m["processes"],
                            "accesses": m["accesses"], "sampled_accesses": m["sampled_accesses"],
                            "layout_judged": bool(m["judged"]), "fields": out_fields})
    out_structs.sort(key=lambda s: (-s["accesses"], s["name"]))
    result = {"tool": "cache-frag", "schema_version": SCHEMA_VERSION, "merged": True,
              "process_tree": tree_of(items),
              "process_cpu_seconds": round(process_cpu, 9),
              "tool_cpu_seconds": {k: round(v, 9) for k, v in tool_cpu.items()},
              "run_cpu_seconds": round(run_cpu, 9),
              "expected_gain": {"cpu_seconds": round(gain_cpu, 9),
                                "share": round(gain_cpu / run_cpu, 6) if run_cpu else 0,
                                "wall_seconds": round(gain_wall, 9)},
              "findings": findings, "structs": out_structs, "processes": processes}
    result.update(counters)
    return result


def merge(items):
    if items[0][0]["tool"] == "working-set":
        return merge_working_set(items)
    return merge_cache_frag(items)


# ---------------------------------------------------------------- text

def _tree_text(m):
    t = m.get("process_tree")
    return (" (the tree of pid %d)" % t["root_pid"]) if t else ""


def _kinds_text(counts):
    return ", ".join("%s x%d" % (k, n) if n > 1 else k for k, n in counts.items())


def _process_lines(m, fmt):
    out = ["  processes:"]
    for p in m["processes"]:
        how = ("root" if p.get("root") else
               "forked from %s" % p["parent_pid"] if p.get("forked") else
               "started by %s" % p["parent_pid"] if p.get("parent_pid") is not None else "")
        out.append("    pid %-7d %-16s %s%s" % (p["pid"], p["name"], fmt(p), ("  (%s)" % how) if how else ""))
    return out


def text_working_set(m):
    lb = m["cache_line_size"]
    t = m["total"]
    size = lambda n: "%s lines (%s)" % (fmt_int(n), fmt_bytes(n * lb))
    out = ["Merged working set of %d process%s%s" % (t["processes"], "" if t["processes"] == 1 else "es",
                                                      _tree_text(m)),
           "  %s, each line counted once; %s summed over the processes"
           % (size(t["lines"]), fmt_lines(t["summed_lines"]))]
    if m["shared_mappings"]:
        out.append("  shared mappings: %s counted once (%s summed), %s touched by more than one process"
                   % (fmt_lines(t["shared_lines"]), fmt_int(t["shared_summed_lines"]), fmt_lines(t["overlap_lines"])))
    out.append("  by process kind:")
    out.append("    %-16s %9s %12s %12s %12s %12s" % ("kind", "processes", "lines", "summed", "shared", "overlap"))
    for k in m["by_process_kind"]:
        out.append("    %-16s %9d %12s %12s %12s %12s"
                   % (k["name"], k["processes"], fmt_int(k["lines"]), fmt_int(k["summed_lines"]),
                      fmt_int(k["shared_lines"]), fmt_int(k["overlap_lines"])))
    out.append("  by data structure (matched by kind and name; lines counted once):")
    out.append("    %-8s %12s %12s %9s %12s  %s" % ("kind", "lines", "summed", "processes", "overlap", "name"))
    for s in m["structures"]:
        out.append("    %-8s %12s %12s %9d %12s  %s"
                   % (s["kind"], fmt_int(s["lines"]), fmt_int(s["summed_lines"]), s["processes"],
                      fmt_int(s["overlap_lines"]), s["name"]))
    if m["structures_rest"]["lines"]:
        out.append("    and the other structures: %s" % fmt_lines(m["structures_rest"]["lines"]))
    if m["shared_mappings"]:
        out.append("  shared mappings (by device and inode):")
        for s in m["shared_mappings"]:
            out.append("    %s (device %s, inode %d): %s counted once, %s summed, %s touched by more than one "
                       "of %d process%s"
                       % (s["name"], s["device"], s["inode"], fmt_lines(s["lines"]), fmt_int(s["summed_lines"]),
                          fmt_int(s["overlap_lines"]), s["processes"], "" if s["processes"] == 1 else "es"))
    out += _process_lines(m, lambda p: "%s lines, %s shared" % (fmt_int(p["total_lines"]),
                                                                  fmt_int(p["shared_lines"])))
    out.append("SUMMARY: efsan-view: merged working set of %s cache lines (%s) in %d process%s"
               % (t["lines"], fmt_bytes(t["lines"] * lb), t["processes"], "" if t["processes"] == 1 else "es"))
    return "\n".join(out) + "\n"


def text_cache_frag(m):
    g = m["expected_gain"]
    n = len(m["processes"])
    out = ["Merged cache-frag report of %d process%s%s" % (n, "" if n == 1 else "es", _tree_text(m)),
           "  run CPU time %s summed over the processes; fixing the findings saves %s (%s)"
           % (fmt_seconds(m["run_cpu_seconds"]), fmt_seconds(g["cpu_seconds"]), fmt_share(g["share"]))]
    out.append("  findings (matched across processes by object, kind and offset; summed):")
    if not m["findings"]:
        out.append("    none")
    for i, f in enumerate(m["findings"], 1):
        out.append("    %d. %s: in %d process%s (%s), %s invalidations, the fix saves %s (%s of the CPU time)"
                   % (i, f["title"], f["processes"], "" if f["processes"] == 1 else "es",
                      _kinds_text(f["by_process_kind"]), fmt_int(f["invalidations"]),
                      fmt_seconds(f["estimated_seconds"]), fmt_share(f["share"])))
        if f.get("fix") and f["fix"].get("text"):
            out.append("       fix (pid %d): %s" % (f["fix"]["pid"], f["fix"]["text"]))
    if m["structs"]:
        out.append("  struct field usage (summed over processes):")
    for s in m["structs"]:
        out.append("    %s (%d bytes): %s field accesses in %d process%s"
                   % (s["name"], s["size"], fmt_int(s["accesses"]), s["processes"],
                      "" if s["processes"] == 1 else "es"))
        for fld in s["fields"]:
            out.append("      %-20s offset %-4d size %-4d %12s  %s"
                       % (fld.get("name") or "(field %s)" % fld.get("index"), fld["offset"], fld["size"],
                          fmt_int(fld["count"]), fld["heat"].replace("_", " ")))
    out += _process_lines(m, lambda p: "%d finding%s, %s of CPU time"
                          % (p["findings"], "" if p["findings"] == 1 else "s", fmt_seconds(p["run_cpu_seconds"])))
    out.append("SUMMARY: efsan-view: %d merged finding%s in %d process%s"
               % (len(m["findings"]), "" if len(m["findings"]) == 1 else "s", n, "" if n == 1 else "es"))
    return "\n".join(out) + "\n"


def merged_text(m):
    return text_working_set(m) if m["tool"] == "working-set" else text_cache_frag(m)


def merged_json(m):
    return json.dumps(m, indent=1) + "\n"


# ---------------------------------------------------------------- page

def _bar(value, largest, colour="#1f5fa8"):
    width = int(160 * value / largest) if largest else 0
    return '<span class="count-bar" style="width:%dpx;background:%s"></span>' % (width, colour)


def _processes_table(m, cols):
    head = "".join("<th>%s</th>" % esc(c[0]) for c in cols)
    rows = []
    for p in m["processes"]:
        how = ("root" if p.get("root") else "forked from %s" % p["parent_pid"] if p.get("forked")
               else "started by %s" % p["parent_pid"] if p.get("parent_pid") is not None else "")
        rows.append('<tr class="process"%s><td class=num>%d</td><td>%s</td><td>%s</td>%s<td class="muted">%s</td></tr>'
                    % (attr(data_pid=p["pid"], data_name=p["name"]), p["pid"], esc(p["name"]), esc(how),
                       "".join("<td class=num>%s</td>" % esc(c[1](p)) for c in cols), esc(p["file"])))
    return ('<h3>Processes</h3><table class="processes"><tr><th>pid</th><th>process</th><th>how</th>%s'
            '<th>report</th></tr>%s</table>' % (head, "".join(rows)))


def page_working_set(m):
    lb = m["cache_line_size"]
    t = m["total"]
    out = ['<section class="merged working-set">', "<h2>Working set of the process tree</h2>"]
    cards = [("lines, counted once", t["lines"], "every line once: a line of a shared mapping touched by "
              "several processes counts once", "lines"),
             ("summed over the processes", t["summed_lines"], "each process's own total, added up", "summed-lines"),
             ("shared, counted once", t["shared_lines"], "lines of shared mappings (MAP_SHARED, SysV shm)",
              "shared-lines"),
             ("touched by several processes", t["overlap_lines"], "lines of shared mappings more than one "
              "process touched", "overlap-lines")]
    out.append('<div class="cards">')
    for title, value, hint, key in cards:
        out.append('<div class="card"%s><div class="card-title">%s</div><div class="big">%s</div><div>%s</div>'
                   '<div class="hint">%s</div></div>' % (attr(data_key=key, data_value=value), esc(title),
                                                         esc(fmt_int(value)), esc(fmt_bytes(value * lb)), esc(hint)))
    out.append("</div>")
    largest = max([k["summed_lines"] for k in m["by_process_kind"]] + [1])
    out.append("<h3>By process kind</h3>")
    out.append('<p class="explain">Processes grouped by program name (or the name a process gave itself). '
               '"Lines" counts each line once; "summed" adds the processes\' own totals.</p>')
    rows = "".join('<tr class="kind"%s><td>%s</td><td class=num>%d</td><td class=num>%s</td><td>%s</td>'
                   '<td class=num>%s</td><td class=num>%s</td><td class=num>%s</td></tr>'
                   % (attr(data_name=k["name"], data_processes=k["processes"], data_lines=k["lines"],
                           data_summed=k["summed_lines"], data_shared=k["shared_lines"],
                           data_overlap=k["overlap_lines"]),
                      esc(k["name"]), k["processes"], esc(fmt_int(k["lines"])), _bar(k["lines"], largest),
                      esc(fmt_int(k["summed_lines"])), esc(fmt_int(k["shared_lines"])),
                      esc(fmt_int(k["overlap_lines"])))
                   for k in m["by_process_kind"])
    out.append('<table class="kinds"><tr><th>process kind</th><th>processes</th><th>lines</th><th></th>'
               '<th>summed</th><th>shared</th><th>by several</th></tr>%s</table>' % rows)
    out.append("<h3>Data structures</h3>")
    out.append('<p class="explain">Each listed structure of any process, matched by kind and name (a heap '
               'block by its allocation site). A shared mapping\'s lines count once; the other structures\' '
               'lines are each process\'s own.</p>')
    largest = max([s["lines"] for s in m["structures"]] + [1])
    rows = "".join('<tr class="structure"%s><td>%s</td><td>%s</td><td class=num>%s</td><td>%s</td>'
                   '<td class=num>%s</td><td class=num>%d</td><td class=num>%s</td><td>%s</td></tr>'
                   % (attr(data_kind=s["kind"], data_name=s["name"], data_lines=s["lines"],
                           data_summed=s["summed_lines"], data_processes=s["processes"],
                           data_overlap=s["overlap_lines"]),
                      esc(s["kind"]), esc(object_label(s)[1]), esc(fmt_int(s["lines"])), _bar(s["lines"], largest),
                      esc(fmt_int(s["summed_lines"])), s["processes"], esc(fmt_int(s["overlap_lines"])),
                      esc(", ".join("%s %s" % (k, fmt_int(v)) for k, v in s["by_process_kind"].items())))
                   for s in m["structures"])
    out.append('<table class="structures"><tr><th>kind</th><th>data structure</th><th>lines</th><th></th>'
               '<th>summed</th><th>processes</th><th>by several</th><th>lines by process kind</th></tr>%s%s</table>'
               % (rows, '<tr class="rest"%s><td colspan=2>the other structures</td><td class=num>%s</td>'
                  '<td colspan=5></td></tr>' % (attr(data_lines=m["structures_rest"]["lines"]),
                                                esc(fmt_int(m["structures_rest"]["lines"])))))
    if m["shared_mappings"]:
        out.append("<h3>Shared mappings</h3>")
        rows = "".join('<tr class="shared"%s><td>%s</td><td>%s</td><td class=num>%d</td><td class=num>%s</td>'
                       '<td class=num>%s</td><td class=num>%d</td><td class=num>%s</td></tr>'
                       % (attr(data_name=s["name"], data_inode=s["inode"], data_lines=s["lines"],
                               data_summed=s["summed_lines"], data_overlap=s["overlap_lines"],
                               data_processes=s["processes"]),
                          esc(s["name"]), esc(s["device"]), s["inode"], esc(fmt_int(s["lines"])),
                          esc(fmt_int(s["summed_lines"])), s["processes"], esc(fmt_int(s["overlap_lines"])))
                       for s in m["shared_mappings"])
        out.append('<table class="shared-mappings"><tr><th>mapping</th><th>device</th><th>inode</th><th>lines</th>'
                   '<th>summed</th><th>processes</th><th>by several</th></tr>%s</table>' % rows)
    out.append(_processes_table(m, [("lines", lambda p: fmt_int(p["total_lines"])),
                                    ("shared", lambda p: fmt_int(p["shared_lines"]))]))
    out.append("</section>")
    return "\n".join(out)


def page_cache_frag(m):
    g = m["expected_gain"]
    out = ['<section class="merged cache-frag">', "<h2>False sharing and struct fields of the process tree</h2>"]
    out.append('<div class="cards"><div class="card"%s><div class="card-title">findings</div><div class="big">%d'
               '</div></div><div class="card"%s><div class="card-title">expected gain</div><div class="big">%s</div>'
               '<div class="hint">of the processes\' CPU time (%s of %s)</div></div></div>'
               % (attr(data_key="findings", data_value=len(m["findings"])), len(m["findings"]),
                  attr(data_key="expected-gain", data_value=g["cpu_seconds"]), esc(fmt_share(g["share"])),
                  esc(fmt_seconds(g["cpu_seconds"])), esc(fmt_seconds(m["run_cpu_seconds"]))))
    out.append("<h3>Findings, summed over the processes</h3>")
    if m["findings"]:
        largest = max(f["estimated_seconds"] for f in m["findings"]) or 1
        rows = "".join('<tr class="finding"%s><td class=num>%d</td><td><span class="badge %s">%s</span> %s</td>'
                       '<td class=num>%d</td><td>%s</td><td class=num>%s</td><td class=num>%s</td><td>%s</td>'
                       '<td class="hint">%s</td></tr>'
                       % (attr(data_rank=i, data_kind=f["kind"], data_processes=f["processes"],
                               data_invalidations=f["invalidations"], data_seconds=f["estimated_seconds"]),
                          i, esc(f["kind"]), esc(KIND_TEXT.get(f["kind"], f["kind"])), esc(f["title"]),
                          f["processes"], esc(_kinds_text(f["by_process_kind"])), esc(fmt_int(f["invalidations"])),
                          esc(fmt_seconds(f["estimated_seconds"])), _bar(f["estimated_seconds"], largest, "#c0392b"),
                          esc((f.get("fix") or {}).get("text") or ""))
                       for i, f in enumerate(m["findings"], 1))
        out.append('<table class="findings"><tr><th>#</th><th>finding</th><th>processes</th><th>process kinds</th>'
                   '<th>invalidations</th><th>the fix saves</th><th></th><th>fix (the costliest instance)</th></tr>'
                   '%s</table>' % rows)
    else:
        out.append('<p class="none">No finding in any process.</p>')
    out.append("<h3>Struct field usage, summed over the processes</h3>")
    if m["structs"]:
        out.append(legend_html([(c, k.replace("_", " "), "box") for k, c in HEAT_COLOURS.items()]))
    for s in m["structs"]:
        busiest = max([f["count"] for f in s["fields"]] + [1])
        rows = "".join('<tr class="field heat-%s"%s><td>%s</td><td class=num>%d</td><td class=num>%d</td>'
                       '<td class=num>%s</td><td>%s %s</td></tr>'
                       % (esc(f["heat"]), attr(data_name=f.get("name") or "", data_offset=f["offset"],
                                               data_count=f["count"], data_heat=f["heat"]),
                          esc(f.get("name") or "—"), f["offset"], f["size"], esc(fmt_int(f["count"])),
                          _bar(f["count"], busiest, HEAT_COLOURS.get(f["heat"], "#999")),
                          esc(f["heat"].replace("_", " ")))
                       for f in s["fields"])
        out.append('<div class="struct"%s><h4>%s <span class=muted>%d bytes, %s field accesses in %d process%s'
                   '</span></h4><table class="fields"><tr><th>member</th><th>offset</th><th>size</th>'
                   '<th>accesses</th><th>heat</th></tr>%s</table></div>'
                   % (attr(data_struct=s["name"], data_accesses=s["accesses"]), esc(s["name"]), s["size"],
                      esc(fmt_int(s["accesses"])), s["processes"], "" if s["processes"] == 1 else "es", rows))
    out.append(_processes_table(m, [("findings", lambda p: p["findings"]),
                                    ("CPU time", lambda p: fmt_seconds(p["run_cpu_seconds"] or 0))]))
    out.append("</section>")
    return "\n".join(out)


def merged_page(m, sources):
    body = page_working_set(m) if m["tool"] == "working-set" else page_cache_frag(m)
    n = len(m["processes"])
    tree = m.get("process_tree")
    title = "efsan merged report: %s" % ", ".join(dict.fromkeys(p["name"] for p in m["processes"][:5]))
    subtitle = "%d process%s%s (%s) from %s" % (n, "" if n == 1 else "es",
                                                (", the tree of pid %d" % tree["root_pid"]) if tree else "",
                                                esc(m["tool"]), esc(", ".join(_where(s) for s in sources)))
    return page(title, subtitle, body, False)
