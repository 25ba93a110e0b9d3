#!/usr/bin/env bash
# The efsan benchmark: builds utils/bench/kernels/*.c at -O2 uninstrumented
# (base), with -fsanitize=efficiency-working-set (ws), with
# -fsanitize=efficiency-cache-frag (cf) and, on request, with clang's
# -fsanitize=address (asan), -fmemory-profile (memprof) and -fsanitize=thread
# (tsan), runs them interleaved, fails if any configuration computes a
# different checksum, prints median slowdowns and rewrites the generated
# section of docs/performance.md.
#
#   utils/bench.sh [--configs base,ws,cf,asan,memprof,tsan] [--runs 5] [--kernels a,b]
#                  [--build-dir DIR] [--work-dir DIR] [--no-build] [--no-doc]
#   utils/bench.sh --calibration [--runs 5] [--efsan-runs 3] [--pairs a,b]
#                  [--realtime] [--sweep] [--build-dir DIR] [--no-build] [--no-doc]
#   utils/bench.sh --curve-accuracy [--programs xz,zstd] [--build-dir DIR] [--no-build] [--no-doc]
#
# --calibration measures, for pairs of programs (utils/bench/calibration:
# the sharing, and the same program with the fix the report suggests), the
# gain the fix really brings beside the gain cache-frag claims, and rewrites
# the calibration table of docs/performance.md (utils/bench/calibrate.py).
# With --sweep, instead, one such pair with 0 to 400 steps of private work
# between updates, beside the model's inputs (its own section of the doc).
#
# --curve-accuracy runs the working set's builds of xz and zstd on short
# inputs with the default miss-ratio curves and with every line observed,
# and compares the two curves (utils/bench/curve_accuracy.py; its section of
# docs/performance.md).
#
# Unless --no-build is given, the efsan build in --build-dir (default build/)
# is first brought up to date with utils/bootstrap.sh, as demo.sh/check.sh do.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$root/build
no_build=0
calibration=0
curve_accuracy=0
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  case ${args[i]} in
    --build-dir) build_dir=${args[i + 1]:-} ;;
    --build-dir=*) build_dir=${args[i]#--build-dir=} ;;
    --no-build) no_build=1 ;;
    --calibration) calibration=1 ;;
    --curve-accuracy) curve_accuracy=1 ;;
    -h|--help) exec python3 "$root/utils/bench/bench.py" --help ;;
  esac
done
if [ -z "$build_dir" ]; then
  echo "bench: error: --build-dir needs a directory" >&2
  exit 1
fi

extra=()
if [ $no_build = 0 ]; then
  export EFSAN_BUILD_DIR=$build_dir
  # Only what the benchmark uses: the pass, the runtime and the driver.
  export EFSAN_TARGETS="EfficiencySanitizer clang_rt.efsan-x86_64 clang_rt.efsan-x86_64-symbols efsan-clang"
  # shellcheck source=bootstrap.sh
  source "$root/utils/bootstrap.sh"
  # A failed efsan build must not yield numbers from stale binaries: the
  # efsan configurations are then skipped and base and the peers still measured.
  if ! (efsan_bootstrap); then
    echo "bench: efsan build failed (see above): the ws and cf configurations will be skipped" >&2
    extra+=(--efsan-build-failed)
  fi
fi

if [ $calibration = 1 ]; then
  if [ ${#extra[@]} -gt 0 ]; then
    echo "bench: the calibration needs the efsan build" >&2
    exit 1
  fi
  exec python3 "$root/utils/bench/calibrate.py" --build-dir "$build_dir" "$@"
fi
if [ $curve_accuracy = 1 ]; then
  if [ ${#extra[@]} -gt 0 ]; then
    echo "bench: the curve accuracy needs the efsan build" >&2
    exit 1
  fi
  exec python3 "$root/utils/bench/curve_accuracy.py" --build-dir "$build_dir" "$@"
fi
exec python3 "$root/utils/bench/bench.py" --build-dir "$build_dir" "${extra[@]}" "$@"
