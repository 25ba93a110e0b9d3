#!/usr/bin/env python3
"""Checks that every [text](path#anchor) link in README.md, CONTRIBUTING.md
and docs/**/*.md resolves to an existing file and, for .md targets, to a
heading anchor as GitHub makes them (test/docs/links.test runs it).

  utils/check-doc-links.py REPO [PENDING...]

PENDING: repo-relative paths allowed to be missing, reported apart. Prints
one line per broken link and a count; exits 1 if any is broken."""
import glob
import os
import re
import sys

repo = os.path.abspath(sys.argv[1])
pending = set(sys.argv[2:])
files = [os.path.join(repo, f) for f in ("README.md", "CONTRIBUTING.md")
         if os.path.exists(os.path.join(repo, f))]
files += sorted(glob.glob(os.path.join(repo, "docs", "**", "*.md"), recursive=True))

LINK = re.compile(r"!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def strip_code(text):
    """Text with fenced code blocks and inline code spans blanked."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            out.append("")
            continue
        if m:
            fence = m.group(1)
            out.append("")
            continue
        out.append(re.sub(r"`[^`]*`", lambda c: " " * len(c.group(0)), line))
    return "\n".join(out)


def anchors(path):
    seen, result = {}, set()
    text = open(path, encoding="utf-8").read()
    fence = None
    for line in text.split("\n"):
        m = re.match(r"^\s*(```+|~~~+)", line)
        if fence:
            if m and m.group(1)[0] == fence[0]:
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if not h:
            continue
        title = h.group(1)
        title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)  # links: their text
        slug = title.strip().lower()
        slug = re.sub(r"[^\w\- ]", "", slug)  # GitHub keeps letters, digits, _, -, space
        slug = slug.replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        result.add(slug if n == 0 else "%s-%d" % (slug, n))
    return result


cache, bad, ok, waiting = {}, [], 0, []
for f in files:
    text = strip_code(open(f, encoding="utf-8").read())
    for lineno, line in enumerate(text.split("\n"), 1):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:, file:
                continue
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            rel = os.path.relpath(dest, repo)
            where = "%s:%d: %s" % (os.path.relpath(f, repo), lineno, target)
            if not os.path.exists(dest):
                (waiting if rel in pending else bad).append(where + " (no such file)")
                continue
            if anchor and dest.endswith(".md"):
                if dest not in cache:
                    cache[dest] = anchors(dest)
                if anchor not in cache[dest]:
                    bad.append(where + " (no heading with that anchor)")
                    continue
            ok += 1

for b in bad:
    print("BROKEN " + b)
for w in waiting:
    print("PENDING " + w)
print("%d files, %d links resolve, %d broken, %d to pending files"
      % (len(files), ok, len(bad), len(waiting)))
sys.exit(1 if bad else 0)
