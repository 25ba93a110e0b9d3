#!/usr/bin/env bash
# Where does the time go? Profiles one benchmark binary built by utils/bench.sh
# with perf's software cpu-clock event (hardware counters are often missing in
# VMs) and prints the hottest symbols and the hottest instructions of the top
# symbol.
#
#   utils/bench/profile.sh KERNEL CONFIG [--build-dir DIR]
#   e.g. utils/bench/profile.sh stream_triad ws
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: utils/bench/profile.sh KERNEL CONFIG [--build-dir DIR]" >&2
  exit 1
fi
kernel=$1 config=$2
build_dir=$root/build
if [ "${3:-}" = --build-dir ]; then build_dir=${4:?--build-dir needs a directory}; fi
binary=$build_dir/bench/$config/$kernel
if [ ! -x "$binary" ]; then
  echo "profile: error: $binary not found; run utils/bench.sh --configs $config --kernels $kernel first" >&2
  exit 1
fi
command -v perf >/dev/null || { echo "profile: error: perf is not installed" >&2; exit 1; }

out=$build_dir/bench/profile.$config.$kernel
logs=$build_dir/bench/logs
mkdir -p "$logs"
ESAN_OPTIONS=${ESAN_OPTIONS:+$ESAN_OPTIONS:}log_path=$logs/profile.$config.$kernel \
TSAN_OPTIONS=${TSAN_OPTIONS:+$TSAN_OPTIONS:}report_bugs=0 \
  perf record -q -e cpu-clock -o "$out.data" "$binary" >/dev/null
perf report -i "$out.data" --stdio --no-children --sort dso,symbol 2>/dev/null \
  | grep -v '^#' | grep -v '^$' | head -20
top=$(perf report -i "$out.data" --stdio --no-children --sort symbol 2>/dev/null \
  | grep -v '^#' | grep -v '^$' | head -1 | sed 's/.*\] //' | awk '{print $1}')
echo "---- hottest instructions in $top"
perf annotate -i "$out.data" --stdio "$top" 2>/dev/null \
  | awk -F: '$1+0 >= 1.0' | sort -rn | head -25
