"""Checks that efsan-view's page prints each cache-frag figure as the text
report does, for the same JSON report.

usage: check_figures.py PAGE.html REPORT.json

The runtime formats a finding's gain once (cf_format_impact) for the text
report's finding line and its suggestion, and the JSON carries that
suggestion as the text printed it ("the fix saves 166 ms of CPU time (65% of
the run; about 83.1 ms of wall time)"). The page formats the same figures
from the JSON's full-precision numbers (formatting.py). For every finding,
the page's "the fix saves" row and its ranking bar must print the very
strings the suggestion prints; a portability note's "where lines pair"
figures likewise, listed after the findings under its own heading, out of
the ranking and of the findings card. Prints "figures ok: ..." or the
differences and exits 1."""
import html
import json
import re
import sys

page_path, report_path = sys.argv[1], sys.argv[2]
page = open(page_path, encoding="utf-8").read()
report = json.load(open(report_path))
problems = []

ranked = [f for _, f in sorted(enumerate(report["findings"]),
                               key=lambda p: (bool(p[1]["impact"].get("conditional")),
                                              -p[1]["impact"]["estimated_seconds"], p[0]))]
articles = re.findall(r'<article class="finding[^"]*"[^>]*>(.*?)</article>', page, re.S)
if len(articles) != len(ranked):
    problems.append("%d findings on the page, %d in the report" % (len(articles), len(ranked)))
bars = [html.unescape(b) for b in re.findall(r'<text class="bar-value"[^>]*>([^<]*)</text>', page)]
findings = [f for f in ranked if not f["impact"].get("conditional")]
notes = [f for f in ranked if f["impact"].get("conditional")]
if len(bars) != len(findings):
    problems.append("%d ranking bars, %d findings (notes are not ranked)" % (len(bars), len(findings)))
card = re.search(r'data-key="findings" data-value="(\d+)"', page)
if not card or int(card.group(1)) != len(findings):
    problems.append("findings card %s, %d findings" % (card and card.group(1), len(findings)))
if notes and page.find("Portability notes") < max(page.find("finding-%d-%d\"" % (report["pid"], len(findings))), 0):
    problems.append("the portability notes are not after the findings")

checked = 0
for rank, (f, article) in enumerate(zip(ranked, articles), 1):
    text = (f.get("fix") or {}).get("text") or f.get("suggestion") or ""
    label = html.unescape(re.search(r'<span class="rank">([^<]*)</span>', article).group(1))
    row = re.search(r"<tr><th>the fix saves</th><td>([^<]*)</td></tr>", article)
    shown = html.unescape(row.group(1)) if row else ""
    if f["impact"].get("conditional"):
        want = re.search(r"where lines pair, the fix would save (.+?) of CPU time \((.+?) of the run there(?:, [^;)]* over the machine profile's range)?\)$", text)
        got = re.search(r"where lines pair: (.+?) of CPU time \((.+?) of the run there(?:, [^;)]* over the machine profile's range)?\)$", shown)
        if label != "note %d" % (rank - len(findings)):
            problems.append("#%d: a portability note labelled %r" % (rank, label))
    else:
        want = re.search(r"the fix saves (.+?) of CPU time \((.+?) of the run(?: with that layout)?((?:, [^;)]* over the machine profile's range)?); about (.+?) of wall time\)$", text)
        got = re.search(r"^(.+?) of CPU time \((.+?) of the run(?: with that layout)?((?:, [^;)]* over the machine profile's range)?); about (.+?) of wall time\)$", shown)
        if label != "#%d" % rank:
            problems.append("#%d: labelled %r" % (rank, label))
        if rank <= len(bars) and want and bars[rank - 1] != "%s · %s" % want.groups()[:2]:
            problems.append("#%d: ranking bar %r, the text %r" % (rank, bars[rank - 1], want.groups()[:2]))
    if not want or not got:
        problems.append("#%d: figures not found: text %r, page %r" % (rank, text, shown))
        continue
    if want.groups() != got.groups():
        problems.append("#%d: the text prints %s, the page %s" % (rank, want.groups(), got.groups()))
    checked += 1

if problems:
    print("\n".join("check_figures: " + p for p in problems))
    sys.exit(1)
print("figures ok: %d findings and %d portability notes print as the text does" % (len(findings), len(notes)))
