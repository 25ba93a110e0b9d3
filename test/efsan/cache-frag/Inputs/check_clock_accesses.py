"""Checks the log of waits-new-values.c: the ring's line is priced, and the
producer's (T1) and consumer's (T2) accesses on the virtual clock are
within 3 times of each other."""
import re
import sys

text = open(sys.argv[1]).read()
accesses = {}
for thread, count in re.findall(r"cache-frag impact: line 0x[0-9a-f]+ T(\d+) cpu \d+ ns, accesses (\d+)", text):
    accesses[int(thread)] = int(count)
if 1 not in accesses or 2 not in accesses:
    sys.exit("no pricing of both threads: %r" % accesses)
if "true sharing on cache line" not in text:
    sys.exit("no true sharing finding")
low, high = sorted((accesses[1], accesses[2]))
if high > 3 * low:
    sys.exit("accesses on the clock: producer %d, consumer %d (more than 3 times apart)" % (accesses[1], accesses[2]))
print("ok", accesses)
