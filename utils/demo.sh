#!/usr/bin/env bash
# The efsan demo: sets up and builds what is missing (utils/bootstrap.sh),
# then compiles the programs in docs/examples/ with efsan-clang under both
# tools, runs them and prints their reports; runs each once more with JSON
# reports and draws them with efsan-view (HTML pages, a Perfetto trace), and
# prints where those are.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/bootstrap.sh"
efsan_bootstrap

cc=$EFSAN_BUILD_DIR/bin/efsan-clang
view=$EFSAN_BUILD_DIR/bin/efsan-view
examples=$EFSAN_ROOT/docs/examples
out=$EFSAN_BUILD_DIR/demo
mkdir -p "$out"

run() {  # run <tool> <example> [ESAN_OPTIONS]
  local tool=$1 name=$2 opts=${3:-}
  local flags="-O2 -g -pthread -fsanitize=efficiency-$tool"
  printf '\n\033[1m$ efsan-clang %s %s.c -o %s && ESAN_OPTIONS=%s ./%s\033[0m\n' \
    "$flags" "$name" "$name" "$opts" "$name"
  "$cc" $flags "$examples/$name.c" -o "$out/$name-$tool"
  ESAN_OPTIONS=$opts "$out/$name-$tool"
  # The same run with a JSON report (log_path: one file per process), drawn.
  local json=$out/$name-$tool.json
  rm -f "$json".*
  ESAN_OPTIONS=${opts:+$opts:}report_format=json:log_path=$json "$out/$name-$tool" >/dev/null
  "$view" "$json".* -o "$out/$name-$tool.html"
  pages+=("$out/$name-$tool.html")
}
pages=()

echo "== working set: how big is the data working set, and when? =="
run working-set phases "sample_freq=10"
run working-set threads
run working-set libc_copy
echo
echo "== cache-frag: false sharing between threads and struct field usage =="
run cache-frag false_sharing
run cache-frag struct_fields

echo
echo "== efsan-view: the same reports as pages =="
"$view" --perfetto "$out"/phases-working-set.json.* -o "$out/phases-working-set.trace.json"
for page in "${pages[@]}"; do
  echo "  file://$page"
done
echo "  $out/phases-working-set.trace.json (open it in https://ui.perfetto.dev)"
