"""Checks the miss-ratio curves of a working-set JSON report against the
exact LRU curves the test program computed (Inputs/miss_ratio.c, "expect").

usage: check_miss_ratio.py LOG_PREFIX EXPECTED_JSON [--program TOL]
           [--objects NAME,NAME TOL] [--phases TOL] [--from BYTES]
           [--exact] [--shift S] [--max-shift S] [--se K]

Every curve in the report is checked for shape: cache_bytes are the powers of
two from 16 KiB to 4 GiB, miss_ratio and std_error have one entry per size,
ratios are in [0, 1] and never go up with the size (LRU keeps what a smaller
cache keeps). Then, at every size from --from (default 64 KiB) up, the
program's curve is within --program of the expected one, each named global's
(--objects) within its tolerance, each phase's (--phases, in order) within
its. --exact: every line observed (sampled_fraction 1, std_error 0 or null). --shift S: observed at
1/2^S exactly; --max-shift S: at 1/2^S or more. --se K: at each size the
tolerance is at least K times the curve's own std_error there (a size whose
error the report does not give, null, is not compared): the curve is within
what it says of itself.
"""
import glob
import json
import sys


def fail(message, report=None):
    sys.exit("check_miss_ratio: " + message)


def check_shape(curve, where):
    if curve is None:
        fail("%s: no miss_ratio_curve" % where)
    sizes = curve["cache_bytes"]
    if sizes != [16384 << k for k in range(19)]:
        fail("%s: cache_bytes %s" % (where, sizes))
    ratios, errors = curve["miss_ratio"], curve["std_error"]
    if len(ratios) != len(sizes) or len(errors) != len(sizes):
        fail("%s: %d sizes, %d ratios, %d errors" % (where, len(sizes), len(ratios), len(errors)))
    for a, b in zip(ratios, ratios[1:]):
        if not (0 <= b <= a <= 1):
            fail("%s: ratios not in [0, 1] or going up: %s" % (where, ratios))
    for e in errors:
        if e is not None and not 0 <= e <= 1:
            fail("%s: std_error %s" % (where, errors))
    if curve["sampled_lines"] < 0 or curve["sampled_accesses"] < 0:
        fail("%s: counts" % where)


SE_FACTOR = None


def compare(curve, expected, tolerance, start, where):
    sizes = curve["cache_bytes"]
    worst = 0
    for size, got, want, se in zip(sizes, curve["miss_ratio"], expected, curve["std_error"]):
        if size < start:
            continue
        allowed = tolerance
        if SE_FACTOR is not None:
            if se is None:
                continue
            allowed = max(tolerance, SE_FACTOR * se)
        worst = max(worst, abs(got - want))
        if abs(got - want) > allowed:
            fail("%s at %d bytes: %.4f, exact %.4f (tolerance %.2f)\n  got   %s\n  exact %s" % (
                where, size, got, want, tolerance,
                " ".join("%.3f" % x for x in curve["miss_ratio"]),
                " ".join("%.3f" % x for x in expected)))
    print("%s: within %.4f of the exact curve from %d bytes up" % (where, worst, start))


def main():
    args = sys.argv[1:]
    prefix, expected_path = args[0], args[1]
    args = args[2:]
    program_tol, objects, phases_tol, start = None, {}, None, 65536
    exact, shift, max_shift = False, None, None
    while args:
        flag = args.pop(0)
        if flag == "--program":
            program_tol = float(args.pop(0))
        elif flag == "--objects":
            names, tol = args.pop(0), float(args.pop(0))
            for name in names.split(","):
                objects[name] = tol
        elif flag == "--phases":
            phases_tol = float(args.pop(0))
        elif flag == "--from":
            start = int(args.pop(0))
        elif flag == "--exact":
            exact = True
        elif flag == "--shift":
            shift = int(args.pop(0))
        elif flag == "--max-shift":
            max_shift = int(args.pop(0))
        elif flag == "--se":
            global SE_FACTOR
            SE_FACTOR = float(args.pop(0))
        else:
            fail("unknown argument %s" % flag)
    paths = [p for p in glob.glob(prefix + ".*") if p[len(prefix) + 1:].isdigit()]
    if len(paths) != 1:
        fail("expected one report %s.*, found %s" % (prefix, paths))
    report = json.load(open(paths[0]))
    expected = json.load(open(expected_path))
    curve = report["miss_ratio_curve"]
    check_shape(curve, "program")
    fraction = float(curve["sampled_fraction"])
    if exact and fraction != 1:
        fail("sampled_fraction %s, expected 1" % fraction)
    # Nothing is estimated when every line is observed: no error to state.
    if exact and any(e not in (None, 0) for e in curve["std_error"]):
        fail("std_error %s with every line observed, expected 0 (or null)" % curve["std_error"])
    if shift is not None and fraction != 2.0 ** -shift:
        fail("sampled_fraction %s, expected 2^-%d" % (fraction, shift))
    if max_shift is not None and fraction < 2.0 ** -max_shift:
        fail("sampled_fraction %s below 2^-%d" % (fraction, max_shift))
    for o in report["objects"]:
        if o.get("miss_ratio_curve") is not None:
            check_shape(o["miss_ratio_curve"], "object %s" % o["name"])
    if program_tol is not None:
        compare(curve, expected["program"], program_tol, start, "program")
    for name, tol in objects.items():
        o = next((o for o in report["objects"] if o["kind"] == "global" and o["name"] == name), None)
        if o is None:
            fail("no object %s in %s" % (name, [o["name"] for o in report["objects"]]))
        check_shape(o["miss_ratio_curve"], "object %s" % name)
        compare(o["miss_ratio_curve"], expected["objects"][name], tol, start, "object %s" % name)
    if phases_tol is not None:
        phases = report["phases"]
        if len(phases) != len(expected["phases"]):
            fail("%d phases, expected %d" % (len(phases), len(expected["phases"])))
        for p, want in zip(phases, expected["phases"]):
            check_shape(p["miss_ratio_curve"], "phase %s" % p["name"])
            compare(p["miss_ratio_curve"], want, phases_tol, start, "phase %s" % p["name"])


if __name__ == "__main__":
    main()
