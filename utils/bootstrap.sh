#!/usr/bin/env bash
# Brings a Debian 12 machine from "git only" to a built efsan tree, doing only
# what is missing: Debian packages, the parts of the LLVM 19.1.7 source package
# we compile against, the CMake configure, and an incremental ninja build.
#
# Sourced by demo.sh and check.sh; also runnable by itself.
# Environment:
#   EFSAN_BUILD_DIR        build directory (default: <repo>/build)
#   EFSAN_LLVM_SOURCE_DIR  an llvm-project checkout to use instead of the
#                          Debian source package (skips apt-get source)
#   EFSAN_JOBS             ninja -j (default 2)
#   EFSAN_CMAKE_ARGS       extra arguments for the first CMake configure
set -euo pipefail

EFSAN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EFSAN_BUILD_DIR=${EFSAN_BUILD_DIR:-$EFSAN_ROOT/build}
EFSAN_JOBS=${EFSAN_JOBS:-2}
EFSAN_DEPS_DIR=$EFSAN_ROOT/third_party
LLVM_VERSION=19.1.7
LLVM_SRC_PKG=llvm-toolchain-19
DEBIAN_PACKAGES=(clang-19 llvm-19-dev llvm-19-tools lld-19 libclang-19-dev
                 libclang-rt-19-dev cmake ninja-build python3 dpkg-dev xz-utils
                 patch file
                 libzstd-dev zlib1g-dev  # LLVM's static libraries link them (llvm-symbolizer)
                 libomp-19-dev  # -fopenmp: clang's OpenMP runtime and omp.h
                 chromium chromium-driver fonts-dejavu-core)  # efsan-view tests: a browser

log() { printf 'efsan-bootstrap: %s\n' "$*" >&2; }
# shellcheck source=deb-src.sh
source "$EFSAN_ROOT/utils/deb-src.sh"

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

install_packages() {
  local missing=() p
  for p in "${DEBIAN_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
      || missing+=("$p")
  done
  local need_src=0
  if [ -z "${EFSAN_LLVM_SOURCE_DIR:-}" ] && [ ! -f "$(llvm_source_stamp)" ]; then
    need_src=1
  fi
  if [ ${#missing[@]} -eq 0 ] && [ $need_src = 0 ]; then return; fi
  if [ $need_src = 1 ] && efsan_add_deb_src; then
    log "added deb-src entries (apt-get source needs them)"
  fi
  log "apt-get update"
  as_root apt-get update -q >/dev/null
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing: ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  fi
}

llvm_source_paths() {
  cat <<'PATHS'
compiler-rt/lib/sanitizer_common/*
compiler-rt/lib/interception/*
compiler-rt/lib/ubsan/*
compiler-rt/include/*
compiler-rt/cmake/*
compiler-rt/lib/CMakeLists.txt
clang/include/*
clang/lib/Basic/*
clang/lib/Driver/*
clang/lib/CodeGen/*
clang/lib/Lex/*
clang/lib/Frontend/*
clang/tools/driver/*
llvm/include/llvm/Transforms/Instrumentation/*
llvm/lib/Transforms/Instrumentation/CMakeLists.txt
llvm/lib/Passes/PassRegistry.def
llvm/lib/Passes/PassBuilder.cpp
llvm/tools/llvm-symbolizer/*
PATHS
}

# The stamp names the extraction list, so adding a path re-extracts.
llvm_source_stamp() {
  echo "$EFSAN_DEPS_DIR/.llvm-$LLVM_VERSION-$(llvm_source_paths | md5sum | cut -c1-12)"
}

# Only the directories efsan compiles against or patches are extracted: the
# runtime needs sanitizer_common and interception, the native clang build
# (utils/build-clang.sh) needs the clang sources it recompiles, and the
# static llvm-symbolizer (cmake/symbolizer) its tool's two files.
fetch_llvm_source() {
  if [ -n "${EFSAN_LLVM_SOURCE_DIR:-}" ]; then
    LLVM_SOURCE_DIR=$EFSAN_LLVM_SOURCE_DIR
    return
  fi
  LLVM_SOURCE_DIR=$EFSAN_DEPS_DIR/llvm-project
  local stamp
  stamp=$(llvm_source_stamp)
  [ -f "$stamp" ] && return
  local dl=$EFSAN_DEPS_DIR/download
  mkdir -p "$dl"
  if ! ls "$dl"/${LLVM_SRC_PKG}_${LLVM_VERSION}.orig.tar.xz >/dev/null 2>&1; then
    log "apt-get source $LLVM_SRC_PKG (download only)"
    (cd "$dl" && apt-get source --download-only -q "$LLVM_SRC_PKG" >/dev/null)
  fi
  local top=${LLVM_SRC_PKG}_${LLVM_VERSION}
  log "extracting sanitizer_common, interception and clang sources"
  rm -rf "$LLVM_SOURCE_DIR" "$EFSAN_DEPS_DIR/$top"
  rm -f "$EFSAN_DEPS_DIR"/.llvm-$LLVM_VERSION-*
  local patterns=() p
  while read -r p; do patterns+=("$top/$p"); done < <(llvm_source_paths)
  tar -C "$EFSAN_DEPS_DIR" -xJf "$dl"/${top}.orig.tar.xz --wildcards "${patterns[@]}"
  mv "$EFSAN_DEPS_DIR/$top" "$LLVM_SOURCE_DIR"
  # Debian's own patches, so the native clang keeps Debian behaviour.
  mkdir -p "$LLVM_SOURCE_DIR/debian"
  tar -C "$LLVM_SOURCE_DIR" -xJf "$dl"/${LLVM_SRC_PKG}_${LLVM_VERSION}-*.debian.tar.xz debian/patches
  touch "$stamp"
}

configure_and_build() {
  if [ ! -f "$EFSAN_BUILD_DIR/build.ninja" ]; then
    log "configuring $EFSAN_BUILD_DIR"
    cmake -G Ninja -S "$EFSAN_ROOT" -B "$EFSAN_BUILD_DIR" \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER=/usr/lib/llvm-19/bin/clang \
      -DCMAKE_CXX_COMPILER=/usr/lib/llvm-19/bin/clang++ \
      ${EFSAN_CMAKE_ARGS:-} \
      -DEFSAN_LLVM_SOURCE_DIR="$LLVM_SOURCE_DIR" >/dev/null
  fi
  log "building"
  local build_log=$EFSAN_BUILD_DIR/last-build.log
  if ! ninja -C "$EFSAN_BUILD_DIR" -j "$EFSAN_JOBS" ${EFSAN_TARGETS:-} >"$build_log" 2>&1; then
    cat "$build_log" >&2
    log "build failed (log: $build_log)"
    return 1
  fi
}

efsan_bootstrap() {
  install_packages
  fetch_llvm_source
  configure_and_build
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  efsan_bootstrap
fi
