#!/usr/bin/env bash
# Runs contended_rmw.c's grid (kinds x private work x layouts), interleaved,
# each run under SCHED_FIFO so that both threads run at once on a loaded
# machine, and prints the median process CPU time of each configuration and
# the share a fix saves: false sharing (plain shared -> plain apart) and an
# atomic total (rmw shared -> none apart, the local-sum fix).
#   utils/bench/contention/run.sh [RUNS]   (default 5; needs root for chrt)
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
runs=${1:-5}
bin=$(mktemp -d)/contended_rmw
trap 'rm -rf "$(dirname "$bin")"' EXIT
clang-19 -O2 -pthread "$dir/contended_rmw.c" -o "$bin"
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# Columns: median CPU s of plain-shared, plain-apart, rmw-shared, rmw-apart,
# none-apart; then the two fixes' gains.
printf '%-5s %-6s %-6s %-6s %-6s %-6s %-7s %s\n' work p-shr p-apt r-shr r-apt n-apt fs-gain atomic-gain
for work in 0 1 3 10 25; do
  declare -A t=()
  for ((r = 0; r < runs; r++)); do
    for cfg in "plain shared" "plain apart" "rmw shared" "rmw apart" "none apart"; do
      t[$cfg]+="$(chrt -f 1 "$bin" ${cfg% *} "$work" ${cfg#* }) "
    done
  done
  m() { echo "${t[$1]}" | tr ' ' '\n' | grep . | median; }
  ps=$(m "plain shared"); pa=$(m "plain apart"); rs=$(m "rmw shared")
  ra=$(m "rmw apart"); na=$(m "none apart")
  awk -v w="$work" -v ps="$ps" -v pa="$pa" -v rs="$rs" -v ra="$ra" -v na="$na" \
    'BEGIN {printf "%-5s %-6s %-6s %-6s %-6s %-6s %-7.2f %.2f\n", w, ps, pa, rs, ra, na, (ps - pa) / ps, (rs - na) / rs}' 
  unset t
done
