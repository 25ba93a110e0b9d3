"""What every cache-frag report must add up to (docs/CacheFrag.md, "The header").

  report_identities.py json REPORT.json...
  report_identities.py text REPORT.txt...  (text reports, or a test's output holding them)

The run's CPU time is the process's less the tool's parts the report names;
every share is its seconds over one named denominator (the run's CPU time,
or, for sharing this run did not have, the run it would be with that
layout); a fix saves at most the run and no more wall time than CPU time; the
program's expected gain, and each end of its range, is at least its largest
finding's and at most their sum (and the run), and at most the findings'
bounds (impact.bound_share), each weighted by its seconds, of the run,
unless the largest finding alone is more. Prints one line per problem
and exits 1, or prints "identities ok N" (N: reports checked, over all the
files).
"""
import json
import re
import sys

NS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def json_problems(r):
    """Problems of one parsed JSON report."""
    problems = []
    run = r["run_cpu_seconds"]
    process = r["process_cpu_seconds"]
    tool = r["tool_cpu_seconds"]
    spent = tool["sampled_path"] + tool["transfer_measurement"]
    own = process - spent if process > spent else process
    own = max(own - tool["polls_beyond_side_by_side"], 0)
    if abs(own - run) > 3e-9:
        problems.append("run_cpu_seconds %r is not the process's %r less the tool's %r" %
                        (run, process, tool))
    if run > process + 1e-9:
        problems.append("run_cpu_seconds %r above process_cpu_seconds %r" % (run, process))
    real = []
    for i, f in enumerate(r["findings"]):
        im = f["impact"]
        est, share, denominator = im["estimated_seconds"], im["share"], im["run_seconds"]
        want = run + est if im["hypothetical"] else run
        if abs(denominator - want) > 2e-9:
            problems.append("finding %d: impact.run_seconds %r, expected %r" % (i, denominator, want))
        if denominator > 0 and abs(share - est / denominator) > 1.5e-6:
            problems.append("finding %d: share %r is not %r s / %r s" % (i, share, est, denominator))
        if not im["low_share"] - 1e-9 <= share <= im["high_share"] + 1e-9 or \
                not im["low_seconds"] - 1e-9 <= est <= im["high_seconds"] + 1e-9:
            problems.append("finding %d: the claim %r s (%r) outside its range %r-%r s (%r-%r)" % (
                i, est, share, im["low_seconds"], im["high_seconds"], im["low_share"],
                im["high_share"]))
        if im["wall_seconds"] > est + 1e-9:
            problems.append("finding %d: wall %r above CPU %r" % (i, im["wall_seconds"], est))
        if im["hypothetical"] != (im["conditional"] or f.get("prediction") == "start-offset"):
            problems.append("finding %d: hypothetical %r for a %s" % (i, im["hypothetical"], f["kind"]))
        if not im["hypothetical"]:
            # No thread loses more than the bound of its time, nor the run.
            if share > im["bound_share"] + 1.5e-6:
                problems.append("finding %d: share %r above the bound %r" % (i, share, im["bound_share"]))
            if est > run + 1e-9 or im["high_seconds"] > run + 1e-9:
                problems.append("finding %d: saves %r s (at most %r s) of a %r s run" % (
                    i, est, im["high_seconds"], run))
            real.append(im)
    gain = r["expected_gain"]
    if real:
        most = max(im["estimated_seconds"] for im in real)
        total = sum(im["estimated_seconds"] for im in real)
        if not most - 1e-9 <= gain["cpu_seconds"] <= total + 1e-9 * len(real):
            problems.append("expected gain %r s not between the largest finding's %r and "
                            "their sum %r" % (gain["cpu_seconds"], most, total))
        # No thread loses more than its bound of its time to the lines it
        # keeps taking: the findings' bounds, weighted by what each claims.
        if total > 0:
            bound = sum(im["estimated_seconds"] * im["bound_share"] for im in real) / total
            if gain["cpu_seconds"] > max(most, bound * run) + 1e-6:
                problems.append("expected gain %r s above the findings' bound %r of the run "
                                "%r s (each weighted by its seconds)" %
                                (gain["cpu_seconds"], bound, run))
        wall = max(im["wall_seconds"] for im in real)
        if not wall - 1e-9 <= gain["wall_seconds"] <= gain["cpu_seconds"] + 1e-9:
            problems.append("expected gain's wall %r s not between the largest finding's %r "
                            "and its CPU %r" % (gain["wall_seconds"], wall, gain["cpu_seconds"]))
        # The range's ends add up as the point does: the most a fix of
        # every line saves is at least one line's most, at most their sum
        # and never more than the run.
        high = max(im["high_share"] for im in real)
        highs = sum(im["high_share"] for im in real)
        if not high - 1.5e-6 <= gain["high_share"] <= min(highs + 1.5e-6 * len(real), 1.0):
            problems.append("expected gain's high end %r not between the largest finding's %r "
                            "and min(their sum %r, 1)" % (gain["high_share"], high, highs))
    elif gain["cpu_seconds"] or gain["wall_seconds"]:
        problems.append("expected gain %r without findings" % gain)
    if not gain["low_share"] - 1e-9 <= gain["share"] <= gain["high_share"] + 1e-9:
        problems.append("expected gain's share %r outside its range %r-%r" % (
            gain["share"], gain["low_share"], gain["high_share"]))
    if run > 0 and abs(gain["share"] - gain["cpu_seconds"] / run) > 1.5e-6:
        problems.append("expected gain's share %r is not %r s / %r s" %
                        (gain["share"], gain["cpu_seconds"], run))
    return problems


DURATION = r"([0-9.]+) (ns|us|ms|s)"
PERCENT = r"(<?[0-9.]+)%"
# ", 38-47% over the machine profile's range" after a share.
RANGE = r"(?:, (<?[0-9.]+)-(<?[0-9.]+)% over the machine profile's range)?"


def seconds(value, unit):
    return float(value) * NS[unit]


def percent(text):
    return 0.0 if text.startswith("<") else float(text) / 100


def near(printed, exact, digits_error=0.006):
    """Whether a figure printed to three significant digits is exact's."""
    return abs(printed - exact) <= digits_error * max(abs(exact), abs(printed)) + 1e-12


def text_problems(lines):
    """Problems of each text report in lines; (problems, reports seen)."""
    problems, reports = [], 0
    run = None
    real, total = [], None
    def finish():
        if total is None or not real:
            return
        cpu, wall = total
        if cpu < max(c for c, _ in real) * (1 - 0.011):
            problems.append("total %r s below a finding's %r s" % (cpu, max(c for c, _ in real)))
        if cpu > sum(c for c, _ in real) * (1 + 0.011):
            problems.append("total %r s above the findings' sum %r s" % (cpu, sum(c for c, _ in real)))
        if wall > cpu * 1.011:
            problems.append("total wall %r s above its CPU %r s" % (wall, cpu))
    for line in lines:
        m = re.search(r"The run's CPU time: " + DURATION + r", the program's own, .*the process "
                      r"measured " + DURATION + r": the tool's sampled path and start-up took " +
                      DURATION + r", its line-transfer measurement " + DURATION +
                      r"(?:, polls beyond what the threads would wait side by side " + DURATION +
                      r")?\)", line)
        if m:
            finish()
            reports += 1
            real, total = [], None
            g = m.groups()
            run = seconds(g[0], g[1])
            process = seconds(g[2], g[3])
            parts = seconds(g[4], g[5]) + seconds(g[6], g[7]) + (
                seconds(g[8], g[9]) if g[8] else 0)
            if run > process * 1.006 or (parts < process and not near(run + parts, process, 0.02)):
                problems.append("run %r s + tool %r s is not the process's %r s" % (run, parts, process))
            continue
        if run is None:
            continue
        m = re.search(r"Fixing the findings below saves " + DURATION + r" of CPU time \(" +
                      PERCENT + r" of the run" + RANGE + r"; about " + DURATION +
                      r" of wall time\)", line)
        if m:
            g = m.groups()
            total = (seconds(g[0], g[1]), seconds(g[5], g[6]))
            share = percent(g[2])
            if g[3] and not percent(g[3]) <= share <= percent(g[4]) <= 1.0:
                problems.append("total share %s%% outside its range %s-%s%% (or it beyond the "
                                "run)" % (g[2], g[3], g[4]))
            if run and abs(share - total[0] / run) > 0.006 + 0.011 * share:
                problems.append("total share %s%% is not %r s of %r s" % (g[2], total[0], run))
            continue
        m = re.search(r"(#[0-9]+|note [0-9]+:) .*(?:the fix saves|the fix would save) " + DURATION +
                      r" of CPU time \(" + PERCENT + r" of the run( with that layout| there)?" +
                      RANGE + r"(?:; about " + DURATION + r" of wall time)?\)", line)
        if m:
            g = m.groups()
            g = g[:5] + g[7:]  # the range apart
            low, high = m.group(6), m.group(7)
            cpu, share = seconds(g[1], g[2]), percent(g[3])
            hypothetical = bool(g[4])
            if low and not percent(low) <= share <= percent(high) <= 1.0:
                problems.append("%s: %s%% outside its range %s-%s%%" % (g[0], g[3], low, high))
            denominator = run + cpu if hypothetical else run
            if denominator and abs(share - cpu / denominator) > 0.006 + 0.011 * share:
                problems.append("%s: %s%% is not %r s of %r s" % (g[0], g[3], cpu, denominator))
            if g[5] and seconds(g[5], g[6]) > cpu * 1.011:
                problems.append("%s: wall above CPU" % g[0])
            if not hypothetical:
                if cpu > run * 1.011:
                    problems.append("%s: saves %r s of a %r s run" % (g[0], cpu, run))
                real.append((cpu, seconds(g[5], g[6]) if g[5] else 0))
    finish()
    return problems, reports


def main():
    mode, paths = sys.argv[1], sys.argv[2:]
    failed, reports = False, 0
    for path in paths:
        if mode == "json":
            problems, n = json_problems(json.load(open(path))), 1
        else:
            problems, n = text_problems(open(path, errors="replace").read().splitlines())
        reports += n
        for p in problems:
            print("report_identities: %s: %s" % (path, p))
        failed = failed or bool(problems)
    if failed:
        return 1
    print("identities ok %d" % reports)
    return 0


if __name__ == "__main__":
    sys.exit(main())
