"""Writes a machine profile for this machine with the values a test chooses.

  write_profile.py REPORT.json PROFILE --transfer NS... --hammered PPM... --rmw PPM...
                   [--paired PPM...] [--hammered-least PPM...]
                   [--hammered-stores PPM...] [--unoptimised PPM...]
                   [--one-write PPM...]
                   [--work-1 PPM...] [--work-2 PPM...] [--work-4 PPM...]
                   [--work-8 PPM...] [--work-32 PPM...]
                   [--rmw-removed PPM...] [--rmw-work-1 PPM...]
                   [--rmw-removed-work-1 PPM...]

REPORT.json is a cache-frag JSON report of a run on this machine (its
"machine" key names the machine the profile must be of); PROFILE gets the
format efsan-calibrate writes (docs/CacheFrag.md, "The machine profile").
"""
import argparse
import json

p = argparse.ArgumentParser()
p.add_argument("report")
p.add_argument("profile")
p.add_argument("--transfer", type=int, nargs="+", required=True)
p.add_argument("--hammered", type=int, nargs="+", required=True)
p.add_argument("--rmw", type=int, nargs="+", required=True)
p.add_argument("--paired", type=int, nargs="+", default=[])
p.add_argument("--hammered-least", type=int, nargs="+", default=[])
p.add_argument("--hammered-stores", type=int, nargs="+", default=[])
p.add_argument("--unoptimised", type=int, nargs="+", default=[])
p.add_argument("--one-write", type=int, nargs="+", default=[])
p.add_argument("--work-1", type=int, nargs="+", default=[])
p.add_argument("--work-2", type=int, nargs="+", default=[])
p.add_argument("--work-4", type=int, nargs="+", default=[])
p.add_argument("--work-8", type=int, nargs="+", default=[])
p.add_argument("--work-32", type=int, nargs="+", default=[])
p.add_argument("--rmw-removed", type=int, nargs="+", default=[])
p.add_argument("--rmw-work-1", type=int, nargs="+", default=[])
p.add_argument("--rmw-removed-work-1", type=int, nargs="+", default=[])
a = p.parse_args()
machine = json.load(open(a.report))["machine"]
with open(a.profile, "w") as f:
    f.write("# written by a test\nkey %s\nupdated 2026-01-02T03:04:05Z\n" % machine)
    f.write("transfer_ns %s\n" % " ".join(map(str, a.transfer)))
    f.write("hammered_loss_ppm %s\n" % " ".join(map(str, a.hammered)))
    f.write("rmw_loss_ppm %s\n" % " ".join(map(str, a.rmw)))
    if a.hammered_least:
        f.write("hammered_least_loss_ppm %s\n" % " ".join(map(str, a.hammered_least)))
    if a.hammered_stores:
        f.write("hammered_stores_loss_ppm %s\n" % " ".join(map(str, a.hammered_stores)))
    if a.unoptimised:
        f.write("unoptimised_loss_ppm %s\n" % " ".join(map(str, a.unoptimised)))
    for key, values in (("one_write_loss_ppm", a.one_write),
                        ("work_1_loss_ppm", a.work_1),
                        ("work_2_loss_ppm", a.work_2),
                        ("work_4_loss_ppm", a.work_4),
                        ("work_8_loss_ppm", a.work_8),
                        ("work_32_loss_ppm", a.work_32),
                        ("rmw_removed_loss_ppm", a.rmw_removed),
                        ("rmw_work_1_loss_ppm", a.rmw_work_1),
                        ("rmw_removed_work_1_loss_ppm", a.rmw_removed_work_1)):
        if values:
            f.write("%s %s\n" % (key, " ".join(map(str, values))))
    if a.paired:
        f.write("paired_loss_ppm %s\n" % " ".join(map(str, a.paired)))
print("profile of %s" % machine)
