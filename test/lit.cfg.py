# -*- Python -*-
# The efsan lit suite. One suite, two drivers: lit parameter `driver`
# (or EFSAN_DRIVER) picks `efsan-clang` (stock clang + plugin, the default) or
# `native` (build/bin/clang from llvm-patches/). Every end-to-end test runs
# through both; tests that only a native clang can pass say
# `REQUIRES: native-clang`.
import os
import lit.formats
import lit.util

config.name = "efsan"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".ll", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
if getattr(config, "efsan_obj_root", None):
    config.test_exec_root = os.path.join(config.efsan_obj_root, "test")

driver = lit_config.params.get("driver", os.environ.get("EFSAN_DRIVER", "efsan-clang"))
bindir = os.path.join(config.efsan_obj_root, "bin")
if driver == "native":
    cc = os.path.join(bindir, "clang")
    cxx = os.path.join(bindir, "clang++")
    config.available_features.add("native-clang")
elif driver == "efsan-clang":
    cc = os.path.join(bindir, "efsan-clang")
    cxx = os.path.join(bindir, "efsan-clang++")
    config.available_features.add("efsan-clang-driver")
else:
    lit_config.fatal("unknown driver %r (want efsan-clang or native)" % driver)
if not os.path.exists(cc):
    lit_config.fatal("driver %s is not built" % cc)
config.name += " (%s)" % driver

# Sanitizer-style substitutions. Tests compile with -O2 unless they say
# otherwise, keep frame pointers, and run the binary directly.
config.substitutions.append(("%clangxx", cxx))
config.substitutions.append(("%clang", cc))
config.substitutions.append(("%opt", os.path.join(config.llvm_tools_dir, "opt")))
config.substitutions.append(("%efsan_plugin", config.efsan_plugin))
config.substitutions.append(("%efsan_rtdir", config.efsan_runtime_dir))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%run", ""))
config.substitutions.append(("%stock_clang", os.path.join(config.llvm_tools_dir, "clang")))
config.substitutions.append(("%bindir", bindir))
config.substitutions.append(("%efsan_obj_root", config.efsan_obj_root))
config.substitutions.append(("%efsan_view", os.path.join(bindir, "efsan-view")))
config.substitutions.append(("%srcroot", config.efsan_src_root))

# FileCheck, not, count, split-file, llvm-symbolizer come from LLVM 19.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, bindir, config.environment.get("PATH", os.environ["PATH"])])
# Tests must not inherit a user's tuning, nor be part of the process tree of
# an instrumented program that runs the suite.
for var in ("ESAN_OPTIONS", "ESAN_TREE", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
    config.environment.pop(var, None)

config.available_features.add("x86_64-linux")
# The static llvm-symbolizer the runtime prefers (cmake/symbolizer).
if os.path.exists(os.path.join(bindir, "llvm-symbolizer")):
    config.available_features.add("built-symbolizer")
# cache-frag findings must not depend on the schedule: tests rerun their
# program pinned to one core where taskset exists (`%if taskset %{ ... %}`).
import shutil
if shutil.which("taskset"):
    config.available_features.add("taskset")
# Two CPUs online, whatever the affinity mask lit runs with (a run pinned to
# one core still has the machine's second CPU for the transfer measurement).
if os.sysconf("SC_NPROCESSORS_ONLN") >= 2:
    config.available_features.add("two-cpus-online")
# OpenMP tests: clang's libomp (Debian's libomp-19-dev, which bootstrap.sh
# installs) and GCC's libgomp with a GCC that compiles OpenMP.
llvm_lib = os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")
if (os.path.exists(os.path.join(llvm_lib, "libomp.so")) and
        os.path.exists(os.path.join(llvm_lib, "clang", "19", "include", "omp.h"))):
    config.available_features.add("libomp")
if shutil.which("gcc"):
    import subprocess
    probe = subprocess.run(["gcc", "-print-file-name=libgomp.so"],
                           capture_output=True, text=True)
    if probe.returncode == 0 and os.path.isabs(probe.stdout.strip()):
        config.available_features.add("libgomp")
# Tests that make a setuid program and run it as another user.
if os.geteuid() == 0 and shutil.which("setpriv"):
    config.available_features.add("root-and-setpriv")
