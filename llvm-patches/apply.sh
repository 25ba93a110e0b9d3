#!/usr/bin/env bash
# Applies the efsan patch series to an llvm-project 19.1.7 tree and copies the
# project's new files into it, so that a normal LLVM build of that tree has
# -fsanitize=efficiency-* built into clang.
#
#   llvm-patches/apply.sh [--debian-patches DIR] LLVM_PROJECT_DIR
#
# --debian-patches DIR: Debian's debian/patches directory (from the
#   llvm-toolchain-19 source package; <tree>/debian/patches is used when it
#   exists). Debian's patches that touch a file of
#   this series are applied first, where not already applied, so a rebuilt
#   file keeps Debian's behaviour. Without it the tree is used as it is.
# The script says which Debian patches were found applied (or applied it) and
# is idempotent: patches and files already in place are left alone.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
debian_patches=

usage() { echo "usage: $0 [--debian-patches DIR] LLVM_PROJECT_DIR" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --debian-patches) [ $# -ge 2 ] || usage; debian_patches=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -eq 1 ] || usage
tree=$(cd "$1" && pwd)
say() { printf 'apply.sh: %s\n' "$*"; }
die() { printf 'apply.sh: error: %s\n' "$*" >&2; exit 1; }

[ -f "$tree/clang/include/clang/Basic/Sanitizers.def" ] ||
  die "$tree does not look like an llvm-project tree (no clang/include/clang/Basic/Sanitizers.def)"

mapfile -t series < <(grep -v '^[[:space:]]*\(#\|$\)' "$here/series")

# Files the series touches, as paths inside llvm-project.
touched_files() {
  local p
  for p in "${series[@]}"; do
    sed -n 's|^+++ b/||p' "$here/$p"
  done | sort -u
}

# patch(1) rather than git apply: the tree need not be a git checkout, and
# patch can tell "already applied" (reverse applies) from "does not apply".
state_of() { # patch-file strip -> applied | applicable | conflict
  if patch -d "$tree" -p"$2" -R --dry-run -s -f <"$1" >/dev/null 2>&1; then
    echo applied
  elif patch -d "$tree" -p"$2" --dry-run -s -f <"$1" >/dev/null 2>&1; then
    echo applicable
  else
    echo conflict
  fi
}

# 1. Debian's own patches on the files we touch. The extracted Debian source
# package (utils/bootstrap.sh) keeps them in <tree>/debian/patches.
if [ -z "$debian_patches" ] && [ -f "$tree/debian/patches/series" ]; then
  debian_patches=$tree/debian/patches
fi
mapfile -t touched < <(touched_files)
debian_found=() debian_applied=()
if [ -n "$debian_patches" ]; then
  [ -f "$debian_patches/series" ] || die "$debian_patches has no series file"
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  while read -r dp; do
    [ -f "$debian_patches/$dp" ] || continue
    for f in "${touched[@]}"; do
      # Debian's patches name files <pkgdir>/<path>: keep only the sections
      # for files of the series (a patch may also touch files not extracted).
      awk -v want="$f" '
        /^--- / { hdr = $0
                  if ((getline nxt) > 0 && nxt ~ /^[+][+][+] /) {
                    path = nxt; sub(/^[+][+][+] [^\/]*\//, "", path); sub(/[ \t].*$/, "", path)
                    keep = (path == want); if (keep) { print hdr; print nxt }
                  } else if (keep) { print hdr; print nxt }
                  next }
        /^(Index: |diff |====)/ { keep = 0; next }
        keep { print }' "$debian_patches/$dp" >"$tmp/part"
      [ -s "$tmp/part" ] || continue
      debian_found+=("$dp")
      case $(state_of "$tmp/part" 1) in
        applied) debian_applied+=("${dp%.*}") ;;
        applicable) patch -d "$tree" -p1 -s -f <"$tmp/part"
                    debian_applied+=("${dp%.*} (applied now)") ;;
        conflict) die "Debian patch $dp neither applies to nor is applied in $f" ;;
      esac
    done
  done < <(grep -v '^[[:space:]]*\(#\|$\)' "$debian_patches/series" | sed 's/[[:space:]].*//')
  if [ ${#debian_found[@]} -gt 0 ]; then
    say "Debian patches on files of the series: ${debian_applied[*]}"
  else
    say "Debian patches: none touches a file of the series"
  fi
else
  say "Debian patches: not applied (no --debian-patches, and $tree has no debian/patches): upstream files"
fi

# 2. The series.
for p in "${series[@]}"; do
  case $(state_of "$here/$p" 1) in
    applied) say "$p: already applied" ;;
    applicable) patch -d "$tree" -p1 -s -f <"$here/$p"; say "$p: applied" ;;
    conflict) die "$p does not apply to $tree (is it llvm-project 19.1.7?)" ;;
  esac
done

# 3. The new files, where they sit in llvm-project. The pass plugin entry
# point and clang/tools/efsan-clang are for stock clang only and stay out.
new_files=(
  llvm/include/llvm/Transforms/Instrumentation/EfficiencySanitizer.h
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizer.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerAllocWrappers.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerInternal.h
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerCompares.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerCountdown.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerEarlyExitLoops.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerLoopRanges.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerMemberNames.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerStructFields.cpp
  compiler-rt/include/sanitizer/efsan_interface.h
)
copied=0
copy_if_changed() { # relative path
  mkdir -p "$tree/$(dirname "$1")"
  if ! cmp -s "$root/$1" "$tree/$1"; then cp "$root/$1" "$tree/$1"; copied=$((copied + 1)); fi
}
for f in "${new_files[@]}"; do
  [ -f "$root/$f" ] || die "missing $root/$f"
  copy_if_changed "$f"
done
while IFS= read -r -d '' f; do
  copy_if_changed "${f#"$root"/}"
done < <(find "$root/compiler-rt/lib/efsan" -type f -print0)
say "new files: $copied copied, the rest already up to date"
