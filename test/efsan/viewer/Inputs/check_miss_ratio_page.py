"""Opens an efsan-view page in headless Chromium and checks its miss-ratio
chart against the working-set report it was made from.

usage: check_miss_ratio_page.py PAGE.html PNG REPORT.json [--diff AFTER.json]

The answers come from the report (parsed here): the chart has one curve for
the whole run and one per listed structure with a curve, each with a point
per size carrying the report's ratio, in order; every data or unified cache
of the report within the sizes is a dashed mark; the table gives each
curve's "would stop missing" size (the first below 0.1) or "misses at every
size". With --diff the page is a diff, whose chart has both runs' whole-run
curves. No error or warning on the console. Prints "miss-ratio page ok: ...".
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser  # noqa: E402

FACTS = r"""
const svg = document.querySelector('svg.miss-ratio-chart');
if (!svg) return null;
const vis = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
return {visible: vis(svg),
        curves: [...svg.querySelectorAll('g.mr-curve')].map(g => ({name: g.dataset.name,
            bytes: [...g.querySelectorAll('circle.mr-point')].map(c => Number(c.dataset.bytes)),
            ratios: [...g.querySelectorAll('circle.mr-point')].map(c => Number(c.dataset.ratio))})),
        caches: [...svg.querySelectorAll('g.cache-mark')].map(g => Number(g.dataset.bytes)),
        rows: [...document.querySelectorAll('tr.mr-row')].map(r => [r.dataset.name, r.dataset.stop,
                                                                   r.children[3].textContent])};
"""


def main():
    page, png, report_path = sys.argv[1:4]
    after = json.load(open(sys.argv[5])) if len(sys.argv) > 5 and sys.argv[4] == "--diff" else None
    report = json.load(open(report_path))
    problems = []

    def expect(ok, what):
        if not ok:
            problems.append(what)

    with Browser() as b:
        b.open(page)
        facts = b.run(FACTS)
        expect(facts is not None, "no miss-ratio chart")
        if facts is None:
            sys.exit("\n".join(problems))
        expect(facts["visible"], "the chart is not visible")
        runs = [report] + ([after] if after else [])
        curves = [r["miss_ratio_curve"] for r in runs]
        if not after:
            curves += [o["miss_ratio_curve"] for o in report["objects"] if o.get("miss_ratio_curve")]
        expect(len(facts["curves"]) == len(curves), "%d curves drawn, %d in the report"
               % (len(facts["curves"]), len(curves)))
        for drawn, want in zip(facts["curves"], curves):
            expect(drawn["bytes"] == want["cache_bytes"], "%s: sizes %s" % (drawn["name"], drawn["bytes"]))
            expect(all(abs(a - b) < 1e-9 for a, b in zip(drawn["ratios"], want["miss_ratio"]))
                   and len(drawn["ratios"]) == len(want["miss_ratio"]),
                   "%s: ratios %s, report %s" % (drawn["name"], drawn["ratios"], want["miss_ratio"]))
        lo, hi = min(curves[0]["cache_bytes"]), max(curves[0]["cache_bytes"])
        caches = sorted(c["size_bytes"] for c in runs[-1].get("caches") or []
                        if c["type"] in ("Data", "Unified") and lo <= c["size_bytes"] <= hi)
        expect(sorted(facts["caches"]) == caches, "cache marks %s, report %s" % (facts["caches"], caches))
        if not after:
            expect(len(facts["rows"]) >= len(curves), "%d table rows" % len(facts["rows"]))
            for (name, stop, text), want in zip(facts["rows"], curves):
                first = next((s for s, r in zip(want["cache_bytes"], want["miss_ratio"]) if r < 0.1), None)
                expect((stop == str(first)) if first is not None else (stop == "" and "every size" in text),
                       "%s: stops at %r (%s), report %s" % (name, stop, text, first))
        bad = [e for e in b.console() if e.get("level") in ("SEVERE", "WARNING")]
        expect(not bad, "console: %s" % bad)
        size = b.screenshot(png)
        expect(size > 1000, "screenshot of %d bytes" % size)
    if problems:
        sys.exit("miss-ratio page: " + "\n".join(problems))
    print("miss-ratio page ok: %d curves, %d cache marks, %d rows"
          % (len(facts["curves"]), len(facts["caches"]), len(facts["rows"])))


if __name__ == "__main__":
    main()
