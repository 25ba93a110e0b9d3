#!/usr/bin/env bash
# Runs every efsan test: sets up and builds what is missing (utils/bootstrap.sh),
# builds the native clang (utils/build-clang.sh), then runs the lit suite
# twice, once through efsan-clang and once through the native clang.
# Ends with one line "N passed, N failed, N skipped" and exits non-zero on
# any failure.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/bootstrap.sh"
efsan_bootstrap
"$here/build-clang.sh"

lit=/usr/lib/llvm-19/build/utils/lit/lit.py
results=$EFSAN_BUILD_DIR/test/results
mkdir -p "$results"
status=0
for driver in efsan-clang native; do
  log "lit suite through $driver"
  rm -f "$results/$driver.json"
  python3 "$lit" -sv --param driver="$driver" -j "$EFSAN_JOBS" \
    --output "$results/$driver.json" "$EFSAN_BUILD_DIR/test" || status=1
done

# lit's own summary is per run; this is the one line for both.
python3 - "$results"/efsan-clang.json "$results"/native.json <<'PY' || status=1
import json, sys
passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        tests = json.load(open(path))["tests"]
    except (OSError, ValueError, KeyError):
        failed += 1  # a run that wrote no results is a failure
        continue
    for t in tests:
        code = t["code"]
        if code in ("PASS", "XFAIL"):
            passed += 1
        elif code in ("UNSUPPORTED", "SKIPPED", "EXCLUDED"):
            skipped += 1
        else:
            failed += 1
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
PY
exit $status
