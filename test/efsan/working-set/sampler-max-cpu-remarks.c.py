"""Checks what each sample was charged (verbosity=3 lines of
sampler-max-cpu-remarks.c): twice its CPU time if estimated, once if not.
usage: sampler-max-cpu-remarks.c.py LOG estimated|exact"""
import re
import sys

log, mode = sys.argv[1], sys.argv[2]
text = open(log, errors="replace").read()
if "done" not in text:
    sys.exit("the program did not finish:\n" + text[-2000:])
samples = re.findall(r"charged ([0-9]+) ns for ([0-9]+) ns of CPU( \(estimated\))?", text)
if not samples:
    sys.exit("no sample said what it was charged:\n" + text[-2000:])
estimated = [(int(c), int(t)) for c, t, e in samples if e]
exact = [(int(c), int(t)) for c, t, e in samples if not e]
bad = [s for s in estimated if s[0] != 2 * s[1]] + [s for s in exact if s[0] != s[1]]
if bad:
    sys.exit("charges that are not twice (estimated) or once (exact) the CPU time: %r" % bad[:10])
if mode == "estimated" and len(estimated) < len(samples) // 2:
    sys.exit("%d of %d samples estimated, expected most" % (len(estimated), len(samples)))
if mode == "exact" and estimated:
    sys.exit("%d samples estimated with exact_snapshots=1" % len(estimated))
print("ok: %d samples, %d estimated" % (len(samples), len(estimated)))
