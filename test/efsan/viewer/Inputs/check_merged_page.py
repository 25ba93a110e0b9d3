"""Opens a merged page (efsan-view --merge -o PAGE.html) in headless Chromium
and checks it against the merged JSON of the same reports (efsan-view
--merge --format json; process-tree/Inputs/check_merged.py checks that one
against the per-process reports).

usage: check_merged_page.py PAGE.html PNG MERGED.json

Working set: the cards carry the lines counted once, summed, shared and
touched by several processes; one row per process kind, per data structure
(and the rest), per shared mapping and per process, in the JSON's order,
each with the JSON's figures. Cache-frag: the findings in rank order with
their processes, invalidations and saved seconds; each struct's fields with
their summed counts and heat. Nothing on the console; a screenshot of the
whole page goes to PNG. Prints "page ok: ..." lines, or the problems and
exits 1.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402

FACTS = r"""
const rows = (sel, keys) => [...document.querySelectorAll(sel)].map(r => {
  const vis = r.getBoundingClientRect().height > 0;
  return Object.assign({visible: vis}, Object.fromEntries(keys.map(k => [k, r.dataset[k]])));
});
return {
  cards: Object.fromEntries([...document.querySelectorAll('.card[data-key]')].map(c => [c.dataset.key, c.dataset.value])),
  kinds: rows('table.kinds tr.kind', ['name', 'processes', 'lines', 'summed', 'shared', 'overlap']),
  structures: rows('table.structures tr.structure', ['kind', 'name', 'lines', 'summed', 'processes', 'overlap']),
  rest: rows('table.structures tr.rest', ['lines']),
  shared: rows('table.shared-mappings tr.shared', ['name', 'inode', 'lines', 'summed', 'overlap', 'processes']),
  processes: rows('table.processes tr.process', ['pid', 'name']),
  findings: rows('table.findings tr.finding', ['rank', 'kind', 'processes', 'invalidations', 'seconds']),
  structs: [...document.querySelectorAll('div.struct')].map(d => ({name: d.dataset.struct,
      accesses: d.dataset.accesses,
      fields: [...d.querySelectorAll('tr.field')].map(r => [r.dataset.name, Number(r.dataset.offset),
                                                            Number(r.dataset.count), r.dataset.heat])})),
  svgCount: document.querySelectorAll('svg').length,
};
"""


def main(argv):
    page, png, merged_path = argv
    m = json.load(open(merged_path))
    problems, notes = [], []

    def expect(ok, what):
        if not ok:
            problems.append(what)

    def same_rows(what, got, want):
        expect(len(got) == len(want), "%s: %d rows for %d" % (what, len(got), len(want)))
        for g, w in zip(got, want):
            expect(g == w, "%s: row %s, want %s" % (what, g, w))

    with Browser() as b:
        b.open(page)
        f = b.run(FACTS)
        console = [e for e in b.console() if e.get("level") in ("SEVERE", "WARNING")]
        expect(not console, "console: %s" % console)
        size = b.screenshot(png)
        expect(size > 1000, "screenshot of %d bytes" % size)
    expect(all(r["visible"] for k in ("kinds", "structures", "shared", "processes", "findings") for r in f[k]),
           "a row is not shown")
    same_rows("processes", [(int(p["pid"]), p["name"]) for p in f["processes"]],
              [(p["pid"], p["name"]) for p in m["processes"]])
    if m["tool"] == "working-set":
        t = m["total"]
        expect(f["cards"] == {"lines": str(t["lines"]), "summed-lines": str(t["summed_lines"]),
                              "shared-lines": str(t["shared_lines"]), "overlap-lines": str(t["overlap_lines"])},
               "cards %s" % f["cards"])
        num = lambda row, keys: tuple(row[k] if k in ("name", "kind") else int(row[k]) for k in keys)
        same_rows("kinds", [num(r, ["name", "processes", "lines", "summed", "shared", "overlap"]) for r in f["kinds"]],
                  [(k["name"], k["processes"], k["lines"], k["summed_lines"], k["shared_lines"], k["overlap_lines"])
                   for k in m["by_process_kind"]])
        same_rows("structures", [num(r, ["kind", "name", "lines", "summed", "processes", "overlap"])
                                 for r in f["structures"]],
                  [(s["kind"], s["name"], s["lines"], s["summed_lines"], s["processes"], s["overlap_lines"])
                   for s in m["structures"]])
        same_rows("rest", [int(r["lines"]) for r in f["rest"]], [m["structures_rest"]["lines"]])
        same_rows("shared mappings", [num(r, ["name", "inode", "lines", "summed", "overlap", "processes"])
                                      for r in f["shared"]],
                  [(s["name"], s["inode"], s["lines"], s["summed_lines"], s["overlap_lines"], s["processes"])
                   for s in m["shared_mappings"]])
        notes.append("merged working-set: %d kinds, %d structures, %d shared mappings, %d processes"
                     % (len(f["kinds"]), len(f["structures"]), len(f["shared"]), len(f["processes"])))
    else:
        expect(f["cards"].get("findings") == str(len(m["findings"])), "cards %s" % f["cards"])
        same_rows("findings", [(int(r["rank"]), r["kind"], int(r["processes"]), int(r["invalidations"]),
                                float(r["seconds"])) for r in f["findings"]],
                  [(i, x["kind"], x["processes"], x["invalidations"], x["estimated_seconds"])
                   for i, x in enumerate(m["findings"], 1)])
        same_rows("structs", [(s["name"], int(s["accesses"]), s["fields"]) for s in f["structs"]],
                  [(s["name"], s["accesses"], [[x.get("name") or "", x["offset"], x["count"], x["heat"]]
                                               for x in s["fields"]]) for s in m["structs"]])
        notes.append("merged cache-frag: %d findings, %d structs, %d processes"
                     % (len(f["findings"]), len(f["structs"]), len(f["processes"])))
    if problems:
        for p in problems:
            print("check_merged_page: " + p)
        return 1
    for n in notes:
        print("page ok: " + n)
    print("page ok: %d svg, screenshot %s" % (f["svgCount"], png))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
