"""Checks the cache section of working-set reports against sysfs.

usage: check_caches.py LOG_PREFIX TEXT_REPORT

Reads this machine's caches from /sys/devices/system/cpu/cpu0/cache/index*
itself and checks, in every JSON report LOG_PREFIX.<pid>: `caches` lists them
in index order with level, type, size_bytes and shared_by_cpus; `fits_level`
of the total, each level's `peak_fits_level` and every snapshot's
`fits_level` name the smallest data or unified cache at least as large as
that many lines (0 if none). Without the sysfs directory (a Firecracker
VM's kernel) the runtime asks cpuid: its L1 data and L2 caches must be the
sizes glibc's sysconf reads from cpuid on its own (`getconf
LEVEL1_DCACHE_SIZE`, `LEVEL2_CACHE_SIZE`), and the fits follow the caches
it lists. In TEXT_REPORT (a text report of the same program) the caches
line and the total's verdict must say the same.
"""
import glob
import json
import os
import re
import subprocess
import sys

SYSFS = "/sys/devices/system/cpu/cpu0/cache"


def read(path):
    with open(path) as f:
        return f.read().strip()


def cpu_count(cpu_list):
    count = 0
    for part in cpu_list.split(","):
        first, _, last = part.partition("-")
        count += int(last or first) - int(first) + 1
    return count


def sysfs_caches():
    caches = []
    index = 0
    while os.path.isdir("%s/index%d" % (SYSFS, index)):
        d = "%s/index%d" % (SYSFS, index)
        size = read(d + "/size")
        units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
        size_bytes = int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)
        caches.append({"level": int(read(d + "/level")), "type": read(d + "/type"),
                       "size_bytes": size_bytes,
                       "shared_by_cpus": cpu_count(read(d + "/shared_cpu_list"))})
        index += 1
    return caches


def getconf(name):
    try:
        out = subprocess.run(["getconf", name], capture_output=True, text=True).stdout.strip()
        return int(out) if out.isdigit() else 0
    except OSError:
        return 0


def cpuid_caches(report_caches, path):
    """Without sysfs: the report's caches, checked against glibc's."""
    for level, ctype, name in ((1, "Data", "LEVEL1_DCACHE_SIZE"), (2, "Unified", "LEVEL2_CACHE_SIZE")):
        size = getconf(name)
        if not size:
            continue
        if not any(c["level"] == level and c["type"] == ctype and c["size_bytes"] == size
                   for c in report_caches):
            sys.exit("%s: caches %s lack L%d %s of %d bytes (getconf %s)"
                     % (path, report_caches, level, ctype, size, name))
    return report_caches


def fit_level(caches, lines):
    fitting = [c["level"] for c in caches
               if c["type"] in ("Data", "Unified") and c["size_bytes"] >= 64 * lines]
    return min(fitting) if fitting else 0


def main():
    prefix, text_path = sys.argv[1], sys.argv[2]
    expected = sysfs_caches()
    paths = [p for p in glob.glob(prefix + ".*") if p[len(prefix) + 1:].isdigit()]
    if not paths:
        sys.exit("no report files %s.*" % prefix)
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        if not os.path.isdir(SYSFS):
            expected = cpuid_caches(report["caches"], path)
        if report["caches"] != expected:
            sys.exit("%s: caches %s, sysfs says %s" % (path, report["caches"], expected))
        if report["fits_level"] != fit_level(expected, report["total_lines"]):
            sys.exit("%s: fits_level %d for %d lines" % (path, report["fits_level"],
                                                         report["total_lines"]))
        for level in report["levels"]:
            if level["peak_fits_level"] != fit_level(expected, level["peak_lines"]):
                sys.exit("%s: level %d peak_fits_level wrong" % (path, level["level"]))
            if level["fits_level"] != [fit_level(expected, n) for n in level["lines"]]:
                sys.exit("%s: level %d fits_level %s for %s" % (
                    path, level["level"], level["fits_level"], level["lines"]))
    with open(text_path) as f:
        text = f.read()
    data = [c for c in expected if c["type"] in ("Data", "Unified")]
    for c in data:
        name = "L%d%s %d KiB" % (c["level"], "d" if c["level"] == 1 else "", c["size_bytes"] >> 10)
        if name not in text:
            sys.exit("text report does not list %s:\n%s" % (name, text))
    total = int(re.search(r"total working set size: (\d+) cache lines", text).group(1))
    level = fit_level(expected, total)
    if not data:
        verdict = "cache sizes unknown"  # neither sysfs nor cpuid describes them
    elif level:
        size = [c for c in data if c["level"] == level][0]["size_bytes"] >> 10
        verdict = "fits L%d%s (%d KiB)" % (level, "d" if level == 1 else "", size)
    else:
        verdict = "exceeds L%d" % max(c["level"] for c in data)
    if "so it can exceed the peak RSS): " + verdict not in text:
        sys.exit("text report lacks the verdict %r:\n%s" % (verdict, text))
    print("ok: %d caches, %d report(s)" % (len(expected), len(paths)))


if __name__ == "__main__":
    main()
