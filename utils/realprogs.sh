#!/usr/bin/env bash
# Real multi-threaded programs under efsan (utils/bench/realprogs.py): fetches
# their Debian sources, builds each plain, with the working set and with
# cache-frag, runs their own tests and a timed workload, and prints the table
# of docs/performance.md ("Real multi-threaded programs").
#
#   utils/realprogs.sh [--programs a,b] [--runs 3] [--work-dir DIR] [--doc]
#
# The efsan build in build/ is first brought up to date with
# utils/bootstrap.sh, as check.sh and bench.sh do.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case " $* " in
  *" -h "*|*" --help "*) exec python3 "$root/utils/bench/realprogs.py" --help ;;
esac
# shellcheck source=bootstrap.sh
source "$root/utils/bootstrap.sh"
efsan_bootstrap
exec python3 "$root/utils/bench/realprogs.py" "$@"
