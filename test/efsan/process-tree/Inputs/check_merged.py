"""Checks a merged report (efsan-view --merge --format json) against the
per-process reports it was made from and against expressions.

usage: check_merged.py MERGED.json DIR|LOG_PREFIX EXPR...

Always checked, from the per-process reports in DIR (PID.json), or the
files LOG_PREFIX.PID of log_path=LOG_PREFIX, alone: the
processes are theirs; for the working set, the lines summed are their
totals added up, and the lines counted once are the summed ones less what
the shared mappings' lines counted more than once (their summed less their
union), the structures' lines and the rest add up to the lines counted once,
each kind's figures are its processes'; for cache-frag, every merged
finding's invalidations and saved seconds are the sums of the per-process
findings on its object, and every struct field's count is the sum of the
processes' counts. Each EXPR is then evaluated with `merged`, `reports`,
kind(name), structure(kind, name or name_suffix), mapping(name), finding(title) and struct(name)
as variables. Prints "merged ok: ..." or the problems and exits 1.
"""
import json
import math
import os
import re
import sys


def main():
    merged = json.load(open(sys.argv[1]))
    directory = sys.argv[2]
    if os.path.isdir(directory):
        paths = [os.path.join(directory, n) for n in sorted(os.listdir(directory))
                 if re.fullmatch(r"[0-9]+\.json", n)]
    else:
        folder, base = os.path.split(directory)
        paths = [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                 if re.fullmatch(re.escape(base) + r"\.[0-9]+", n)]
    reports = [json.load(open(p)) for p in paths]
    problems = []

    def expect(ok, what):
        if not ok:
            problems.append(what)

    expect(sorted(p["pid"] for p in merged["processes"]) == sorted(r["pid"] for r in reports),
           "processes %s" % [p["pid"] for p in merged["processes"]])
    env = {"merged": merged, "reports": reports}
    if merged["tool"] == "working-set":
        t = merged["total"]
        shared = sum(m["lines"] for r in reports for m in r.get("shared_mappings", []))
        expect(t["summed_lines"] == sum(r["total_lines"] for r in reports), "summed_lines %d" % t["summed_lines"])
        expect(t["shared_summed_lines"] == shared, "shared_summed_lines %d, want %d" % (t["shared_summed_lines"], shared))
        expect(t["lines"] == t["summed_lines"] - (shared - t["shared_lines"]), "lines %d" % t["lines"])
        listed = sum(s["lines"] for s in merged["structures"]) + merged["structures_rest"]["lines"]
        expect(listed == t["lines"], "structures and rest %d, lines %d" % (listed, t["lines"]))
        for k in merged["by_process_kind"]:
            mine = [p for p in merged["processes"] if p["name"] == k["name"]]
            expect(k["processes"] == len(mine) and k["summed_lines"] == sum(p["total_lines"] for p in mine),
                   "kind %s" % k)
        env["kind"] = lambda name: next(k for k in merged["by_process_kind"] if k["name"] == name)
        # The structure of that name, else the one whose name ends so.
        env["structure"] = lambda kind, suffix: next(
            s for s in sorted(merged["structures"], key=lambda s: s["name"] != suffix)
            if s["kind"] == kind and s["name"].endswith(suffix))
        env["mapping"] = lambda name: next(m for m in merged["shared_mappings"] if m["name"] == name)
    else:
        for f in merged["findings"]:
            same = [g for r in reports for g in r["findings"]
                    if g["kind"] == f["kind"] and (g.get("object") or {}).get("name") == (f.get("object") or {}).get("name")]
            expect(f["invalidations"] == sum(g["invalidations"] for g in same), "invalidations of %s" % f["title"])
            expect(math.isclose(f["estimated_seconds"], sum(g["impact"]["estimated_seconds"] for g in same),
                                abs_tol=1e-8), "seconds of %s" % f["title"])
            expect(f["processes"] == len(same), "processes of %s" % f["title"])
        for s in merged["structs"]:
            for fld in s["fields"]:
                want = sum(g["count"] for r in reports for x in r["structs"] if x["name"] == s["name"]
                           for g in x["fields"] if g["offset"] == fld["offset"])
                expect(fld["count"] == want, "%s.%s: %d, want %d" % (s["name"], fld["name"], fld["count"], want))
        env["finding"] = lambda title: next(f for f in merged["findings"] if f["title"] == title)
        env["struct"] = lambda name: next(s for s in merged["structs"] if s["name"] == name)
    for e in sys.argv[3:]:
        try:
            ok = eval(e, env)
        except Exception as x:  # a missing row is a failed expectation
            ok = False
            e += " (%s: %s)" % (type(x).__name__, x)
        expect(ok, "false: %s" % e)
    for p in problems:
        print("check_merged: " + p)
    if problems:
        return 1
    print("merged ok: %s of %d processes" % (merged["tool"], len(reports)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
