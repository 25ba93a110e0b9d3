#!/usr/bin/env python3
"""Checks that a cache-frag JSON report with a machine profile priced its
claims at the profile's state its own transfer names.

Arguments: the report, then LOW-HIGH:BOUND_PPM for each of the profile's
states (the transfers of its rounds in that state and their median bound
of a line both threads keep writing). The report's transfer_source says
what the run measured; as the runtime has it (efsan_cache_frag_profile.c),
a transfer belongs to the state whose transfers it falls in or is within a
factor of two of, the nearer where two are, and
machine_profile.contended_share.point must be that state's bound. A run
that could not tell ("not known") is priced at the median of all rounds,
which is not checked here (machine-states.c checks it). Prints "state ok"
or fails."""
import json
import re
import sys


def main():
    report = json.load(open(sys.argv[1]))
    states = []
    for a in sys.argv[2:]:
        span, bound = a.split(":")
        low, high = (int(x) for x in span.split("-"))
        states.append((low, high, int(bound)))
    source = report["transfer_source"]
    point = report["machine_profile"]["contended_share"]["point"]
    rounds = report["machine_profile"]["state_rounds"]
    if "is not known" in source:
        assert rounds == 0, (rounds, source)
        print("state ok (not known: %s)" % source, file=sys.stderr)
        print("state ok")
        return
    # The end's reading decides (the start's is of the same state).
    measured = re.findall(r"(\d+) ns at its (?:start|end)", source)
    assert measured, source
    ns = int(measured[-1])

    # How far the transfer is from a state's transfers, as a ratio.
    def distance(low, high):
        return low / ns if ns < low else ns / high if ns > high else 1.0

    near = [(distance(low, high), bound) for low, high, bound in states
            if distance(low, high) <= 2]
    assert near, (ns, states, source)
    assert rounds > 0, (rounds, source)
    bound = min(near)[1]
    assert abs(point - bound / 1e6) < 1e-6, (point, bound, source)
    print("state ok")


if __name__ == "__main__":
    main()
