#!/usr/bin/env bash
# Builds a real clang 19.1.7 with -fsanitize=efficiency-* built in, from
# llvm-patches/, without building LLVM: the series is applied to a copy of the
# few upstream sources it needs, only the translation units that the series
# changes (or that expand Sanitizers.def / Features.def) are recompiled, plus
# the pass and clang's driver main, and they are linked before Debian's static
# libclang*.a against the shared libLLVM-19.so.
#
#   utils/build-clang.sh          -> $EFSAN_BUILD_DIR/bin/clang, bin/clang++
#
# Incremental: a ninja build in $EFSAN_BUILD_DIR/native-clang; a second run
# with nothing changed does no compile and no link.
# Environment (as utils/bootstrap.sh):
#   EFSAN_BUILD_DIR        build directory (default: <repo>/build)
#   EFSAN_LLVM_SOURCE_DIR  an llvm-project 19.1.7 checkout instead of the
#                          extracted Debian source package
#   EFSAN_JOBS             parallel jobs (default 2)
# The runtime (libclang_rt.efsan-x86_64.a) is built by the main CMake build
# (utils/bootstrap.sh); this script lays out the resource directory around it.
set -euo pipefail

EFSAN_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# bootstrap.sh is sourceable: reuse its defaults and source-package logic.
# shellcheck source=bootstrap.sh
source "$EFSAN_ROOT/utils/bootstrap.sh"

LLVM_PREFIX=/usr/lib/llvm-19
CLANG_MAJOR=19
log() { printf 'efsan-build-clang: %s\n' "$*" >&2; }
die() { printf 'efsan-build-clang: error: %s\n' "$*" >&2; exit 1; }

# Upstream translation units to recompile, besides those the series patches:
# the other expanders of Sanitizers.def / Features.def (parseSanitizerValue,
# ignorelist sections, __has_feature) and clang's tool sources, which live in
# no library.
EXTRA_TUS=(
  clang/lib/Basic/Sanitizers.cpp
  clang/lib/Basic/SanitizerSpecialCaseList.cpp
  clang/lib/Lex/PPMacroExpansion.cpp
  clang/tools/driver/driver.cpp
  clang/tools/driver/cc1_main.cpp
  clang/tools/driver/cc1as_main.cpp
  clang/tools/driver/cc1gen_reproducer_main.cpp
)
# The pass's own translation units (llvm-patches/apply.sh copies them in).
PASS_TUS=(
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizer.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerAllocWrappers.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerCompares.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerCountdown.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerEarlyExitLoops.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerLoopRanges.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerMemberNames.cpp
  llvm/lib/Transforms/Instrumentation/EfficiencySanitizerStructFields.cpp
)
# The series also patches LLVM's PassBuilder (opt -passes=efsan) and CMake
# files; they matter for a full llvm-project build only. Here the pass is
# compiled into clang directly and opt loads the plugin.
is_clang_tu() { case $1 in clang/lib/*.cpp) return 0 ;; *) return 1 ;; esac; }

# Static clang libraries the driver and cc1 need, in one --start-group.
CLANG_LIBS=(
  clangFrontendTool clangCodeGen clangDriver clangFrontend clangSerialization
  clangParse clangSema clangAnalysis clangAnalysisFlowSensitive
  clangAnalysisFlowSensitiveModels clangEdit clangAST clangASTMatchers
  clangLex clangBasic clangRewrite clangRewriteFrontend clangARCMigrate
  clangStaticAnalyzerFrontend clangStaticAnalyzerCheckers
  clangStaticAnalyzerCore clangCrossTU clangIndex clangExtractAPI
  clangAPINotes clangSupport clangToolingCore clangInstallAPI
)

main() {
  fetch_llvm_source # sets LLVM_SOURCE_DIR; no-op once extracted
  local src=$LLVM_SOURCE_DIR
  [ -f "$src/clang/lib/Driver/SanitizerArgs.cpp" ] ||
    die "$src lacks the clang sources (re-run utils/bootstrap.sh, or point EFSAN_LLVM_SOURCE_DIR at an llvm-project checkout)"
  for f in "$LLVM_PREFIX/lib/libLLVM-$CLANG_MAJOR.so" "$LLVM_PREFIX/lib/libclangDriver.a" "$LLVM_PREFIX/bin/ld.lld"; do
    [ -e "$f" ] || die "missing $f (packages llvm-19-dev, libclang-19-dev, lld-19)"
  done

  local work=$EFSAN_BUILD_DIR/native-clang
  mkdir -p "$work" "$EFSAN_BUILD_DIR/bin"
  stage_sources "$src" "$work"
  write_ninja "$src" "$work"
  log "building $EFSAN_BUILD_DIR/bin/clang"
  if ! ninja -C "$work" -j "$EFSAN_JOBS" >"$work/last-build.log" 2>&1; then
    tail -n 40 "$work/last-build.log" >&2
    die "native clang build failed (log: $work/last-build.log)"
  fi
  ln -sfn clang "$EFSAN_BUILD_DIR/bin/clang++"
  layout_resource_dir
}

# The series applied to a fresh copy of the files it needs, then synced into
# $work/src file by file, so unchanged files keep their timestamps and ninja
# recompiles only what really changed.
stage_sources() {
  local src=$1 work=$2 fresh=$2/src.new f
  rm -rf "$fresh"
  mkdir -p "$fresh"
  local files=()
  mapfile -t files < <(patched_files; printf '%s\n' "${EXTRA_TUS[@]}")
  for f in "${files[@]}"; do
    mkdir -p "$fresh/$(dirname "$f")"
    cp "$src/$f" "$fresh/$f"
  done
  local apply_args=()
  [ -f "$src/debian/patches/series" ] && apply_args=(--debian-patches "$src/debian/patches")
  local out
  out=$("$EFSAN_ROOT/llvm-patches/apply.sh" "${apply_args[@]}" "$fresh") ||
    { printf '%s\n' "$out" >&2; die "applying llvm-patches/ failed"; }
  printf '%s\n' "$out" | grep 'Debian patches' | sed 's/^apply.sh: /efsan-build-clang: /' >&2
  (cd "$fresh" && find . -type f) | while read -r f; do
    f=${f#./}
    if ! cmp -s "$fresh/$f" "$work/src/$f"; then
      mkdir -p "$work/src/$(dirname "$f")"
      cp "$fresh/$f" "$work/src/$f"
    fi
  done
  rm -rf "$fresh"
}

patched_files() {
  local p
  grep -v '^[[:space:]]*\(#\|$\)' "$EFSAN_ROOT/llvm-patches/series" | while read -r p; do
    sed -n 's|^+++ b/||p' "$EFSAN_ROOT/llvm-patches/$p"
  done | sort -u
}

write_ninja() {
  local src=$1 work=$2
  local cxx=$LLVM_PREFIX/bin/clang++
  local launcher=
  command -v ccache >/dev/null 2>&1 && launcher="ccache "
  # Patched headers (staged clang/include, llvm/include) shadow Debian's
  # installed ones; upstream-private headers come from the source tree.
  local iquote="" d
  for d in clang/lib/Basic clang/lib/Driver clang/lib/Driver/ToolChains clang/lib/CodeGen clang/lib/Lex clang/tools/driver; do
    iquote+=" -iquote $src/$d"
  done
  local cxxflags="-std=c++17 -O2 -DNDEBUG -fPIC -fno-exceptions -funwind-tables \
-D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS \
-Wno-deprecated-declarations -Wno-unused-command-line-argument \
-I$work/src/clang/include -I$work/src/llvm/include -I$LLVM_PREFIX/include$iquote"

  local tus=() f
  while read -r f; do is_clang_tu "$f" && tus+=("$f"); done < <(patched_files)
  tus+=("${EXTRA_TUS[@]}" "${PASS_TUS[@]}")

  local libs="" l
  for l in "${CLANG_LIBS[@]}"; do libs+=" $LLVM_PREFIX/lib/lib$l.a"; done

  local ninja=$work/build.ninja.new
  {
    echo "# Generated by utils/build-clang.sh; do not edit."
    echo "ninja_required_version = 1.10"
    echo "cxxflags = $cxxflags"
    echo "rule cxx"
    echo "  command = ${launcher}$cxx -MD -MF \$out.d \$cxxflags -c \$in -o \$out"
    echo "  depfile = \$out.d"
    echo "  deps = gcc"
    echo "  description = CXX \$out"
    echo "rule driver_main"
    echo "  command = sed 's/@TOOL_NAME@/clang/g' \$in > \$out"
    echo "  description = GEN \$out"
    echo "rule link"
    echo "  command = $cxx -fuse-ld=lld --ld-path=$LLVM_PREFIX/bin/ld.lld -o \$out \$in -Wl,--start-group $libs -Wl,--end-group -L$LLVM_PREFIX/lib -lLLVM-$CLANG_MAJOR -Wl,-rpath,$LLVM_PREFIX/lib -lpthread"
    echo "  description = LINK \$out"
    local objs=""
    for f in "${tus[@]}"; do
      echo "build obj/$f.o: cxx src/$f"
      objs+=" obj/$f.o"
    done
    echo "build gen/clang-driver.cpp: driver_main $LLVM_PREFIX/lib/cmake/llvm/llvm-driver-template.cpp.in"
    echo "build obj/clang-driver.cpp.o: cxx gen/clang-driver.cpp"
    objs+=" obj/clang-driver.cpp.o"
    # Patched objects first: the archive members they replace are then never
    # pulled in.
    echo "build $EFSAN_BUILD_DIR/bin/clang: link$objs | $libs $LLVM_PREFIX/lib/libLLVM-$CLANG_MAJOR.so"
    echo "default $EFSAN_BUILD_DIR/bin/clang"
  } >"$ninja"
  cmp -s "$ninja" "$work/build.ninja" || mv "$ninja" "$work/build.ninja"
  rm -f "$ninja"
}

# clang finds its resource directory from its real path:
# $EFSAN_BUILD_DIR/lib/clang/19. The main build puts our runtime in its
# lib/linux; Debian's headers, runtimes and ignorelists are linked in beside
# it so that everything stock clang can do, this one can too. The LLVMgold
# plugin, ld.lld and libomp are linked next to the binary where clang looks
# for them, so -flto, -fuse-ld=lld and -fopenmp work as with
# /usr/lib/llvm-19/bin/clang.
layout_resource_dir() {
  local deb=$LLVM_PREFIX/lib/clang/$CLANG_MAJOR
  local res=$EFSAN_BUILD_DIR/lib/clang/$CLANG_MAJOR
  local e
  mkdir -p "$res/include/sanitizer" "$res/lib/linux"
  for e in "$deb"/include/*; do
    [ "$(basename "$e")" = sanitizer ] || ln -sfn "$e" "$res/include/"
  done
  for e in "$deb"/include/sanitizer/*; do ln -sfn "$e" "$res/include/sanitizer/"; done
  ln -sfn "$EFSAN_ROOT/compiler-rt/include/sanitizer/efsan_interface.h" "$res/include/sanitizer/"
  for e in "$deb"/lib/linux/*; do
    [ -e "$res/lib/linux/$(basename "$e")" ] || ln -s "$e" "$res/lib/linux/"
  done
  ln -sfn "$deb/share" "$res/share"
  ln -sfn "$deb/bin" "$res/bin"
  ln -sfn "$LLVM_PREFIX/lib/LLVMgold.so" "$EFSAN_BUILD_DIR/lib/LLVMgold.so"
  ln -sfn "$LLVM_PREFIX/bin/ld.lld" "$EFSAN_BUILD_DIR/bin/ld.lld"
  # -fopenmp links -lomp from clang's own lib directory (libomp-19-dev puts
  # it there; the program runs with Debian's libomp.so.5).
  for e in "$LLVM_PREFIX"/lib/libomp.so "$LLVM_PREFIX"/lib/libomp.so.5; do
    [ -e "$e" ] && ln -sfn "$e" "$EFSAN_BUILD_DIR/lib/"
  done
  [ -f "$res/lib/linux/libclang_rt.efsan-x86_64.a" ] ||
    log "note: $res/lib/linux/libclang_rt.efsan-x86_64.a is not built yet (ninja -C $EFSAN_BUILD_DIR clang_rt.efsan-x86_64)"
}

main "$@"
