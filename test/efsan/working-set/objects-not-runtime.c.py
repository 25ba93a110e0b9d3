"""Fails if a global data structure of the report is a symbol of the
sanitizer runtime: a file-local symbol of one of its sources (the STT_FILE
entries of readelf -sW tell whose), or one of its prefixed names."""
import json
import sys

RUNTIME_FILES = ("efsan", "sanitizer_", "sancov_", "interception_", "ubsan_")
RUNTIME_NAMES = ("__efsan", "_ZN7__efsan", "_ZZN7__efsan", "__sanitizer",
                 "_ZN11__sanitizer", "_ZZN11__sanitizer", "__interception",
                 "_ZN14__interception", "__ubsan", "_ZN7__ubsan")

report = json.load(open(sys.argv[1]))
runtime = set()
current_file = ""
for line in open(sys.argv[2]):
    fields = line.split()
    if len(fields) < 8 or not fields[0].rstrip(":").isdigit():
        continue
    kind, bind, name = fields[3], fields[4], fields[7]
    if kind == "FILE":
        current_file = name
        continue
    if kind == "OBJECT" and ((bind == "LOCAL" and current_file.startswith(RUNTIME_FILES))
                             or name.startswith(RUNTIME_NAMES)):
        runtime.add(name)
if len(runtime) < 50:
    sys.exit("only %d runtime symbols found: the check would prove nothing" % len(runtime))
globals_ = [o["name"] for o in report["objects"] if o["kind"] == "global"]
if sys.argv[3] not in globals_:
    sys.exit("the program's global %s is missing: %r" % (sys.argv[3], globals_))
wrong = [g for g in globals_ if g in runtime]
if wrong:
    sys.exit("runtime symbols listed as the program's data: %r" % wrong)
print("ok: %d globals, none of %d runtime symbols" % (len(globals_), len(runtime)))
