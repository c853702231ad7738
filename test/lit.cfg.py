# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "LAYOUT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test", ".c"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.layout_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.txt", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
# lit.site.cfg.py.in does not set llvm_shlib_ext.
config.substitutions.append(("%shlibext", getattr(config, "llvm_shlib_ext", ".so")))
config.substitutions.append(("%layout_src_root", config.layout_src_root))
config.substitutions.append(("%layout_lib_dir", config.layout_lib_dir))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
# The runtime libraries of every mlir-runner RUN line (printMemref*, ...),
# and the OpenMP runtime (libomp, found by CMake: LAYOUT_OPENMP_RUNTIME) that
# parallel kernels call.
runner_libs = [os.path.join(config.mlir_lib_dir, lib)
               for lib in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")]
# /dev/full (Linux) makes every write fail with ENOSPC: write-error tests.
if os.path.exists("/dev/full"):
    config.available_features.add("dev-full")

openmp_runtime = getattr(config, "openmp_runtime", "")
if openmp_runtime and os.path.exists(openmp_runtime):
    runner_libs.append(openmp_runtime)
    config.available_features.add("openmp")
    # Linking a program with kernels compiled ahead of time (aot-*.mlir).
    config.substitutions.append(
        ("%openmp_link", "%s -Wl,-rpath,%s" % (
            openmp_runtime, os.path.dirname(openmp_runtime))))
config.substitutions.append(
    ("%mlir_runner_libs", "-shared-libs=" + ",".join(runner_libs)))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

# Debian's `not`, `count`, FileCheck live in the LLVM tools dir, which is
# not on PATH (see docs/building.md): RUN lines may start with `not`.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.layout_tools_dir, append_path=True)

tool_dirs = [config.layout_tools_dir, config.llvm_tools_dir]
tools = [
    "layout-explain",
    "layout-capi-test",
]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The layout dialect's tools: our driver, and stock MLIR tools for the plugin
# and execution tests.
llvm_config.add_tool_substitutions(["layout-opt", "layout-lsp-server",
                                    "layout-reduce", "mlir-opt",
                                    "mlir-runner"],
                                   tool_dirs)

# Sanitized builds (-DLAYOUT_ENABLE_SANITIZERS=ON, scripts/sanitize.sh): the
# first ASan/UBSan/LeakSanitizer report aborts the tool and fails the test.
# Our settings go last so that they win over any inherited ones.
# allow_user_poisoning=0: Debian's libMLIR.so is not instrumented, so LLVM's
# inline BumpPtrAllocator code poisons slabs (in our instrumented code) that
# libMLIR.so then fills without unpoisoning: false use-after-poison reports.
# Tests that load the sanitized LayoutPlugin into stock (uninstrumented)
# mlir-opt cannot work; they can say `UNSUPPORTED: sanitizers`.
if getattr(config, "layout_sanitizers", False):
    for var, ours in (
        ("ASAN_OPTIONS", "halt_on_error=1:detect_leaks=1:allow_user_poisoning=0"),
        ("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1"),
    ):
        inherited = os.environ.get(var, "")
        config.environment[var] = ":".join(v for v in (inherited, ours) if v)
    config.environment["ASAN_SYMBOLIZER_PATH"] = os.path.join(
        config.llvm_tools_dir, "llvm-symbolizer")
    config.available_features.add("sanitizers")

# Ahead-of-time tests (test/Execution/aot-*.mlir): the configured host
# compiler (CMAKE_CXX_COMPILER) compiles the LLVM IR from mlir-translate and
# links a C++ driver.
config.substitutions.append(("%clangxx", config.host_cxx))
config.substitutions.append(("%mlir_include_dir",
                             os.path.join(os.path.dirname(config.mlir_lib_dir),
                                          "include")))
llvm_config.add_tool_substitutions(["mlir-translate"], tool_dirs)
