#!/bin/sh
# efsan-calibrate: measures what a shared cache line costs on this machine
# (the line transfer, and what a thread loses to an atomic another thread
# bumps too) and adds the measurements to the machine profile that every
# cache-frag run on this machine reads (docs/CacheFrag.md, "The machine
# profile"). The measuring is the runtime's own: a program built here with
# -fsanitize=efficiency-cache-frag runs it before main (cache_frag_calibrate=1).
# Run it when the machine is otherwise idle; again later to add the states a
# VM's vCPUs take at other times.
usage() {
  echo "usage: efsan-calibrate [--profile FILE]"
  echo "  --profile FILE  the profile to add to (default: the one runs read,"
  echo "                  \$XDG_CACHE_HOME/efsan or ~/.cache/efsan/machine-<cpu>.txt,"
  echo "                  or the cache_frag_machine_profile that ESAN_OPTIONS names)"
}
profile=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) [ $# -ge 2 ] || { usage >&2; exit 2; }; profile=$2; shift 2 ;;
    --profile=*) profile=${1#--profile=}; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "efsan-calibrate: error: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
# Without --profile, the profile the runs with these ESAN_OPTIONS read: a
# user who set cache_frag_machine_profile there calibrated the default one
# instead. The user's other options (verbosity=1 prints each phase) come
# along, before the tool's own.
if [ "$profile" = auto ]; then
  named=$(printf '%s\n' "${ESAN_OPTIONS-}" | tr ':' '\n' |
          sed -n 's/^cache_frag_machine_profile=//p' | tail -n 1)
  [ -n "$named" ] && profile=$named
fi
case "$profile" in
  *:*) echo "efsan-calibrate: error: the profile's path cannot contain ':'" >&2; exit 2 ;;
esac
here=$(dirname "$(readlink -f "$0")")
work=$(mktemp -d "${TMPDIR:-/tmp}/efsan-calibrate.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
printf 'int main(void) { return 0; }\n' > "$work/calibrate.c"
"$here/efsan-clang" -O1 -fsanitize=efficiency-cache-frag "$work/calibrate.c" \
  -o "$work/calibrate" || exit 1
ESAN_OPTIONS="${ESAN_OPTIONS:+$ESAN_OPTIONS:}cache_frag_calibrate=1:cache_frag_machine_profile=$profile" \
  "$work/calibrate"
