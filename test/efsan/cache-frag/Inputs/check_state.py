#!/usr/bin/env python3
"""Checks that a cache-frag JSON report with a machine profile priced its
claims at the profile's state its own transfer names.

Arguments: the report, then TRANSFER:BOUND_PPM for each of the profile's
states (a transfer of that state and its median bound of a line both
threads keep writing). The report's transfer_source says what the run
measured: a transfer within a factor of two of a state's is that state, and
machine_profile.contended_share.point must be its bound; a run that could
not tell ("not known") is priced at the median of all rounds, which is not
checked here (machine-states.c checks it). Prints "state ok" or fails."""
import json
import re
import sys


def main():
    report = json.load(open(sys.argv[1]))
    states = [tuple(int(x) for x in a.split(":")) for a in sys.argv[2:]]
    source = report["transfer_source"]
    point = report["machine_profile"]["contended_share"]["point"]
    rounds = report["machine_profile"]["state_rounds"]
    if "is not known" in source:
        assert rounds == 0, (rounds, source)
        print("state ok (not known: %s)" % source, file=sys.stderr)
        print("state ok")
        return
    measured = re.search(r"this run measured (\d+) ns", source)
    assert measured, source
    ns = int(measured.group(1))
    matching = [bound for transfer, bound in states
                if transfer <= 2 * ns and ns <= 2 * transfer]
    assert len(matching) == 1, (ns, states, source)
    assert rounds > 0, (rounds, source)
    assert abs(point - matching[0] / 1e6) < 1e-6, (point, matching, source)
    print("state ok")


if __name__ == "__main__":
    main()
