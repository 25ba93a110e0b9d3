"""Checks a cache-frag JSON report against the text report of the same run
configuration: the JSON must parse, have the documented keys, and carry the
same findings (kinds, invalidations, impact, objects, per-thread byte
ranges) and struct counts.
Addresses differ between runs (ASLR), so they are compared only within one
report (object offsets)."""
import json
import re
import sys

FINDING_KEYS = {"kind", "line_address", "invalidations", "observed_invalidations",
                "estimated_parallel_invalidations", "impact", "threads", "object",
                "objects", "accesses", "access_sites", "access_sites_other", "line_map", "fix", "thread_creations",
                "members"}
SITE_KEYS = {"thread", "access", "function", "file", "line", "count", "under_lock",
             "line_bytes"}
ACCESS_KEYS = {"thread", "offset", "length", "object_offset", "reads", "writes"}
FIELD_KEYS = {"index", "name", "offset", "size", "type", "count", "heat", "address_escapes"}
TEXT_KINDS = {"false sharing": "false-sharing", "true sharing": "true-sharing",
              "predicted false sharing": "predicted-false-sharing"}


def round_3(n):
    """Three significant digits, rounded half up: how the text prints an
    estimate (the model's invalidations, sampled counts); the JSON keeps
    every digit (docs/CacheFrag.md, "Figures")."""
    digits = len(str(n))
    if digits <= 3:
        return n
    scale = 10 ** (digits - 3)
    return (n + scale // 2) // scale * scale


def fail(message):
    print("check_json: " + message)
    sys.exit(1)


def parse_text(path):
    findings, structs = [], []
    finding = struct = None
    for line in open(path):
        # Every line of the text report starts with ==PID==.
        line = re.sub(r"^==\d+==", "", line.rstrip("\n"))
        m = re.match(r"(?:#\d+|note \d+:) (false sharing|true sharing|predicted false sharing)"
                     r".*; threads((?: T\d+)*)$", line)
        if m:
            finding = {"kind": TEXT_KINDS[m.group(1)],
                       "threads": [int(t[1:]) for t in m.group(2).split()], "accesses": [],
                       "sites": []}
            findings.append(finding)
            continue
        m = re.match(r"  invalidations: (\d+) observed, (\d+) estimated", line)
        if m and finding is not None:
            finding["observed_invalidations"] = int(m.group(1))
            finding["estimated_parallel_invalidations"] = int(m.group(2))
            continue
        m = re.match(r"  object: (global|heap object|on the stack|unknown)(?: '([^']*)')?"
                     r"(?: at 0x[0-9a-f]+, size (\d+))?", line)
        if m and finding is not None and "object" not in finding:
            # The first object is the one JSON's "object" holds.
            kind = {"global": "global", "heap object": "heap",
                    "on the stack": "stack", "unknown": "unknown"}[m.group(1)]
            finding["object"] = {"kind": kind, "name": m.group(2),
                                 "size": int(m.group(3)) if m.group(3) else None}
            continue
        if m:
            continue  # a further object of the finding
        m = re.match(r"\s+\+(\d+)\.\.(\d+)\s+(\+\d+\.\.\d+|-)\s+(T\d+|others)\s+(\d+)\s+(\d+)$",
                     line)
        if m and finding is not None:
            first, last = int(m.group(1)), int(m.group(2))
            finding["accesses"].append((-1 if m.group(4) == "others" else int(m.group(4)[1:]),
                                        first, last - first + 1, int(m.group(5)), int(m.group(6))))
            continue
        # An access site: thread, reads, writes, bytes, function and place.
        m = re.match(r"\s+T(\d+)\s+(\d+)\s+(\d+)\s+(\+\d+\.\.\d+(?: \+\d+\.\.\d+)*)\s+(\S+)"
                     r"(?: (\S+?)(?::(\d+))?)?(?: \(lock held\))?$", line)
        if m and finding is not None:
            thread = int(m.group(1))
            for access, count in (("read", int(m.group(2))), ("write", int(m.group(3)))):
                if count:
                    finding["sites"].append((thread, access, m.group(5), m.group(6),
                                             int(m.group(7)) if m.group(7) else None, count))
            continue
        # "struct node" in C with debug info: the name may have a space.
        m = re.match(r"  (\S.*?): size (\d+), (\d+) fields, (\d+) accesses", line)
        if m:
            struct = {"name": m.group(1), "size": int(m.group(2)), "counts": []}
            structs.append(struct)
            continue
        m = re.match(r"    field (\d+)(?: (\S+))?\s+offset (\d+)\s+size (\d+)\s+.*count (\d+)"
                     r"(?: \((.*)\))?$", line)
        if m and struct is not None:
            struct["counts"].append((int(m.group(1)), m.group(2), int(m.group(3)),
                                     int(m.group(4)), int(m.group(5))) + text_heat(m.group(6) or ""))
    return findings, structs


# The text's heat tag as the JSON's heat and address_escapes: "(hot)",
# "(not seen: address escapes)", "(hot; lower bound: address escapes)", none
# for warm.
TEXT_HEATS = {"": "warm", "unused: padding?": "padding", "not seen": "not_seen"}


def text_heat(tag):
    heat, escapes = tag, False
    for suffix in (": address escapes", "; lower bound: address escapes"):
        if tag.endswith(suffix):
            heat, escapes = tag[:-len(suffix)], True
    return (TEXT_HEATS.get(heat, heat), escapes)


def main():
    try:
        report = json.load(open(sys.argv[1]))
    except ValueError as e:
        fail("JSON does not parse: %s" % e)
    for key in ("tool", "schema_version", "pid", "executable", "sampled",
                "sample_period", "findings", "structs"):
        if key not in report:
            fail("missing key %r" % key)
    if report["tool"] != "cache-frag":
        fail("tool is %r" % report["tool"])
    if report["schema_version"] != 5:
        fail("schema_version is %r" % report["schema_version"])
    text_findings, text_structs = parse_text(sys.argv[2])

    def count(n):
        """A count as the text prints it: sampled counts are estimates."""
        return round_3(n) if report["sampled"] else n
    if len(report["findings"]) != len(text_findings):
        fail("%d findings in JSON, %d in text" % (len(report["findings"]), len(text_findings)))
    for j, t in zip(report["findings"], text_findings):
        missing = FINDING_KEYS - set(j)
        if missing:
            fail("finding lacks %s" % sorted(missing))
        for key in ("kind", "threads"):
            if j[key] != t[key]:
                fail("%s: JSON %r, text %r" % (key, j[key], t[key]))
        if j["kind"] != "predicted-false-sharing":
            if j["observed_invalidations"] != t["observed_invalidations"]:
                fail("observed_invalidations: JSON %r, text %r"
                     % (j["observed_invalidations"], t["observed_invalidations"]))
            if round_3(j["estimated_parallel_invalidations"]) != t["estimated_parallel_invalidations"]:
                fail("estimated_parallel_invalidations: JSON %r (%r to 3 digits), text %r"
                     % (j["estimated_parallel_invalidations"], round_3(j["estimated_parallel_invalidations"]),
                        t["estimated_parallel_invalidations"]))
        # The impact is priced with the run's CPU time, which differs from
        # run to run: only its bounds are checked (check_findings.py).
        obj = j["object"]
        if obj["kind"] != t["object"]["kind"]:
            fail("object kind: JSON %r, text %r" % (obj["kind"], t["object"]["kind"]))
        if obj["kind"] == "global" and (obj.get("name") != t["object"]["name"] or
                                        obj.get("size") != t["object"]["size"]):
            fail("global: JSON %r, text %r" % (obj, t["object"]))
        if obj["kind"] == "heap":
            if obj.get("size") != t["object"]["size"]:
                fail("heap size: JSON %r, text %r" % (obj.get("size"), t["object"]["size"]))
            for frame in obj.get("alloc_stack", []):
                if set(frame) - {"allocation_wrapper"} != {"function", "file", "line"} or \
                        frame.get("allocation_wrapper", True) is not True:
                    fail("alloc_stack frame keys %r" % sorted(frame))
        accesses = []
        for a in j["accesses"]:
            if ACCESS_KEYS - set(a):
                fail("access lacks %s" % sorted(ACCESS_KEYS - set(a)))
            accesses.append((a["thread"], a["offset"], a["length"], count(a["reads"]), count(a["writes"])))
        if accesses != t["accesses"]:
            fail("accesses: JSON %r, text %r" % (accesses, t["accesses"]))
        sites = []
        for site in j["access_sites"]:
            if set(site) != SITE_KEYS:
                fail("access site keys %r" % sorted(site))
            sites.append((site["thread"], site["access"], site["function"], site["file"],
                          site["line"], count(site["count"])))
        if sites != t["sites"]:
            fail("access sites: JSON %r, text %r" % (sites, t["sites"]))
    shown = [s for s in report["structs"]]
    if len(shown) != len(text_structs):
        fail("%d structs in JSON, %d in text" % (len(shown), len(text_structs)))
    for j, t in zip(shown, text_structs):
        if (j["name"], j["size"]) != (t["name"], t["size"]):
            fail("struct: JSON %r, text %r" % ((j["name"], j["size"]), (t["name"], t["size"])))
        counts = []
        for f in j["fields"]:
            if FIELD_KEYS - set(f):
                fail("field lacks %s" % sorted(FIELD_KEYS - set(f)))
            counts.append((f["index"], f["name"], f["offset"], f["size"], count(f["count"]),
                           f["heat"], f["address_escapes"]))
        if counts != t["counts"]:
            fail("struct %s counts: JSON %r, text %r" % (j["name"], counts, t["counts"]))
    print("check_json: %d findings and %d structs match" % (len(text_findings), len(text_structs)))


main()
