#!/usr/bin/env python3
"""Checks the runtime's layers (docs/design/Runtime.md): the core calls the
tools only through their tables of hooks (efsan_tool.h), and neither tool
reaches into the other.

usage: check_layering.py RUNTIME_DIR

Each file of RUNTIME_DIR is the core's, a tool's (by its name: efsan_ws_* and
efsan_working_set* are the working set's, efsan_cache_frag* cache-frag's) or
the registry (efsan_tools.c, which names the tools' tables). A tool's names
are the functions and globals its files define or declare with external
linkage, less the ABI's (two leading underscores). Prints one line per
breach and exits 1 if there is any.
"""
import os
import re
import sys

TOOLS = {
    "working-set": re.compile(r"^efsan_(ws_|working_set)"),
    "cache-frag": re.compile(r"^efsan_cache_frag"),
}
REGISTRY = "efsan_tools.c"


def owner(name):
    if name == REGISTRY:
        return "registry"
    for tool, pattern in TOOLS.items():
        if pattern.match(name):
            return tool
    return "core"


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(\\.|[^"\\\n])*"', '""', text)


# External declarations and definitions at the start of a line: a type,
# then the name, then "(" (functions) or ";", "=" or "[" (globals).
DECL = re.compile(
    r"^(?!static\b|typedef\b|#|return\b)(?:extern\s+)?(?:const\s+)?"
    r"(?:struct\s+|enum\s+|unsigned\s+)?\w+[\s\*]+(?:const\s+)?\*?\s*"
    r"(\w+)\s*(?:\(|;|=|\[)", re.M)


def main():
    root = sys.argv[1]
    files = sorted(f for f in os.listdir(root)
                   if f.endswith((".c", ".h", ".cpp", ".inc")))
    texts = {f: strip_comments(open(os.path.join(root, f)).read())
             for f in files}
    names = {tool: set() for tool in TOOLS}
    for f in files:
        tool = owner(f)
        if tool in names:
            names[tool].update(DECL.findall(texts[f]))
    # Names with two leading underscores are the ABI's (the pass emits
    # them; docs/InstrumentationABI.md) or the compiler's.
    for tool in names:
        names[tool] = {n for n in names[tool] if not n.startswith("__")}
    if not all(names.values()):
        print("no names found for a tool: the check itself is broken")
        return 1
    breaches = []
    for f in files:
        me = owner(f)
        if me == "registry":
            continue
        others = [t for t in TOOLS if t != me]
        for inc in re.findall(r'#include\s+"([^"]+)"', texts[f]):
            if owner(inc) in others:
                breaches.append(f"{f}: includes {inc} ({owner(inc)})")
        words = set(re.findall(r"\b\w+\b", texts[f]))
        for tool in others:
            for name in sorted(words & names[tool]):
                breaches.append(f"{f}: names {name} ({tool})")
    for line in breaches:
        print(line)
    counted = {t: len(n) for t, n in names.items()}
    print(f"{len(files)} files, tool names {counted}, "
          f"{len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
