"""bound-by-line-part.c's check: the shared line of the HALF build is
claimed at the profile's loops read at twice the loop count of the build
whose line gets all the writes, and at a lower bound."""
import json
import math
import sys

ONE_WRITE, WORK_8 = (8, 0.70), (54, 0.50)


def shared_finding(path):
    findings = [f for f in json.load(open(path))["findings"]
                if f["kind"] == "false-sharing" and len(f.get("threads", [])) >= 2]
    assert findings, "%s: no false sharing between two threads" % path
    return max(findings, key=lambda f: f["impact"]["share"])["impact"]


def main():
    whole, half = shared_finding(sys.argv[1]), shared_finding(sys.argv[2])
    w, h = whole["bound_loop_work"], half["bound_loop_work"]
    assert w and h, (w, h)
    assert 1.6 <= h / w <= 2.4, "counts %d and %d: not twice" % (w, h)
    # The profile's loops between 8 and 54 instructions per write, linear
    # in the log of the count.
    def bound(work):
        if work <= ONE_WRITE[0]:
            return ONE_WRITE[1]
        t = math.log(work / ONE_WRITE[0]) / math.log(WORK_8[0] / ONE_WRITE[0])
        return ONE_WRITE[1] + min(t, 1) * (WORK_8[1] - ONE_WRITE[1])
    for impact, work in ((whole, w), (half, h)):
        assert abs(impact["bound_share"] - bound(work)) < 0.005, (impact["bound_share"], work, bound(work))
    assert half["bound_share"] < whole["bound_share"] - 0.03, (half["bound_share"], whole["bound_share"])
    print("part ok: %d and %d instructions per write to the line, bounds %.3f and %.3f"
          % (w, h, whole["bound_share"], half["bound_share"]))


if __name__ == "__main__":
    main()
