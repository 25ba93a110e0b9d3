#!/usr/bin/env bash
# Builds the benchmark's real programs, zstd and xz, from Debian 12's source
# packages (libzstd, xz-utils) with a given compiler and flags:
#
#   utils/bench/programs.sh WORK_DIR CONFIG CC [FLAG...]
#
# puts WORK_DIR/CONFIG/zstd and WORK_DIR/CONFIG/xz in place. The sources are
# fetched once with `apt-get source` into WORK_DIR/src (a deb-src entry is
# added and `apt-get update` run first if needed, as utils/bootstrap.sh does)
# and unpacked with dpkg-source. A configuration is rebuilt only when its
# compiler command or the files it is built from change (the stamp holds the
# command line and checksums of the compiler, the efsan pass and runtime).
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: utils/bench/programs.sh WORK_DIR CONFIG CC [FLAG...]" >&2
  exit 1
fi
work=$1 config=$2 cc=$3
shift 3
# make runs in the sources' directories: a relative compiler path would not
# be found there.
case $cc in
  /*) ;;
  */*) cc=$(cd "$(dirname "$cc")" && pwd)/$(basename "$cc") ;;
esac
flags=("$@")
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
src=$work/src
out=$work/$config
jobs=${EFSAN_JOBS:-2}

log() { printf 'bench programs: %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# shellcheck source=../deb-src.sh
source "$root/utils/deb-src.sh"

fetch_sources() {
  [ -f "$src/.fetched" ] && return
  mkdir -p "$src"
  command -v dpkg-source >/dev/null || {
    as_root apt-get update -q >/dev/null
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends dpkg-dev >/dev/null
  }
  if efsan_add_deb_src; then
    log "added deb-src entries (apt-get source needs them)"
  fi
  log "apt-get update; apt-get source libzstd xz-utils"
  as_root apt-get update -q >/dev/null
  (cd "$src" && apt-get source --download-only -q libzstd xz-utils >/dev/null 2>&1)
  rm -rf "$src/zstd" "$src/xz"
  (cd "$src" && dpkg-source -q -x libzstd_*.dsc zstd >/dev/null 2>&1)
  (cd "$src" && dpkg-source -q -x xz-utils_*.dsc xz >/dev/null 2>&1)
  [ -f "$src/zstd/programs/zstdcli.c" ] && [ -f "$src/xz/src/xz/main.c" ] || {
    log "error: the zstd or xz sources did not unpack in $src"
    exit 1
  }
  touch "$src/.fetched"
}

# What the binaries depend on: the command line and, for efsan's driver, the
# pass plugin and the runtime next to it.
stamp_text() {
  echo "$cc ${flags[*]}"
  local bin_dir
  bin_dir=$(dirname "$cc")
  sha256sum "$cc" 2>/dev/null || true
  if [ -d "$bin_dir/../lib" ]; then
    find "$bin_dir/../lib" -maxdepth 1 -name '*.so' -exec sha256sum {} + 2>/dev/null | sort
    find "$bin_dir/../lib/clang" -name 'libclang_rt.efsan*.a' -exec sha256sum {} + 2>/dev/null | sort
  fi
}

fetch_sources
mkdir -p "$out"
stamp=$out/.programs-stamp
if [ -f "$stamp" ] && [ -x "$out/zstd" ] && [ -x "$out/xz" ] && [ "$(stamp_text)" = "$(cat "$stamp")" ]; then
  exit 0
fi
log "building zstd and xz for '$config' ($cc ${flags[*]})"
rm -rf "$out/build"
mkdir -p "$out/build"
cp -a "$src/zstd" "$out/build/zstd"
cp -a "$src/xz" "$out/build/xz"
cflags="-O2 -g ${flags[*]}"
# zstd: the command-line program only, without the optional codecs.
make -s -C "$out/build/zstd/programs" -j"$jobs" zstd CC="$cc" CFLAGS="$cflags" \
  LDFLAGS="${flags[*]}" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 >"$out/build/zstd.log" 2>&1 || {
  log "error: zstd failed to build for '$config', see $out/build/zstd.log"; exit 1; }
# xz: liblzma and the xz program, statically.
(cd "$out/build/xz" && CC="$cc" CFLAGS="$cflags" LDFLAGS="${flags[*]}" ./configure -q \
   --disable-shared --disable-nls --disable-doc --disable-scripts --disable-xzdec \
   --disable-lzmadec --disable-lzmainfo --disable-lzma-links --disable-threads \
   >"$out/build/xz.log" 2>&1 &&
 make -s -C src/liblzma -j"$jobs" >>"$out/build/xz.log" 2>&1 &&
 make -s -C src/xz -j"$jobs" >>"$out/build/xz.log" 2>&1) || {
  log "error: xz failed to build for '$config', see $out/build/xz.log"; exit 1; }
cp "$out/build/zstd/programs/zstd" "$out/zstd"
cp "$out/build/xz/src/xz/xz" "$out/xz"
rm -rf "$out/build"
stamp_text >"$stamp"
