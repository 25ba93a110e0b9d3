"""Turns the declaration a cache-frag report suggests into a C++ file that
checks it does what the advice says.

usage: compile_advice.py REPORT.txt OUT_PREFIX MEMBERS

Takes the first suggestion of the text report that says "declare it
`DECLARATION`" (and its alternative "(or alignas(...)"), and writes
OUT_PREFIX.1.cpp and OUT_PREFIX.2.cpp: the suggested declaration with the
type's members MEMBERS as its body, and static_asserts that each element is
now 64 bytes and 64-byte aligned. The test compiles them with clang++
-fsyntax-only: advice a C++ compiler rejects (C's _Alignas on a type) or
that does not make each element a line of its own fails there."""
import re
import sys

report, prefix, members = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(report, errors="replace").read()
m = re.search(r"suggestion: .*?declare it `([^`]*)` \(or (alignas\([^)]*\))", text)
if not m:
    sys.exit("compile_advice: no 'declare it `...` (or alignas(...)' in a suggestion")
declaration, alternative = m.group(1), m.group(2)
name = declaration.split()[-1]
print("compile_advice: %s; %s" % (declaration, alternative))
for i, head in enumerate((declaration, declaration.replace("alignas(64)", alternative)), 1):
    with open("%s.%d.cpp" % (prefix, i), "w") as f:
        f.write("#include <new>\n%s { %s };\n" % (head, members))
        f.write("static_assert(sizeof(%s) == 64 && alignof(%s) == 64, \"one line each\");\n"
                % (name, name))
        f.write("%s elements[2];\n" % name)
