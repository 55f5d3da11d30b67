# -*- Python -*-
# lit configuration of the stencil compiler's tests.

import os
import shutil
import sys

import lit.formats
import lit.util
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STENCIL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.stencil_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "corpus",
                   "Inputs", "consumer"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%stencil_src", config.stencil_src_root))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%stencil_obj", config.stencil_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%mlir_cmake_dir", config.mlir_cmake_dir))
# A project built against the installed package uses this build's compiler,
# and, in the sanitizer build (scripts/test.sh --sanitize), links the
# sanitizer runtimes the installed libraries need.
consumer_args = "-DCMAKE_CXX_COMPILER=" + config.cxx_compiler
# `sanitizer` feature: the ASan + UBSan build. Its libStencilRuntime is
# instrumented, so hosts that are not (python3, a program nvcc links with
# the host's gcc) cannot load it: those tests run in the plain build only.
if config.sanitizer_link_flags:
    config.available_features.add("sanitizer")
if config.sanitizer_link_flags:
    consumer_args += " '-DCMAKE_EXE_LINKER_FLAGS=%s'" % config.sanitizer_link_flags
config.substitutions.append(("%consumer_cmake_args", consumer_args))
# The independent reference checker (utils/stencil-ref.py).
config.substitutions.append(
    ("%stencil_ref",
     sys.executable + " " +
     os.path.join(config.stencil_src_root, "utils", "stencil-ref.py")))
# mlir-runner with the runtime libraries the CPU harness calls into.
runner_libs = ",".join(
    os.path.join(config.mlir_lib_dir, lib)
    for lib in ["libmlir_runner_utils.so", "libmlir_c_runner_utils.so"])
config.substitutions.append(
    ("%mlir_runner",
     os.path.join(config.llvm_tools_dir, "mlir-runner") +
     " -e main -entry-point-result=void -shared-libs=" + runner_libs))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.stencil_tools_dir, config.llvm_tools_dir]
tools = ["stencil-opt", "stencil-translate",
         ToolSubst("StencilUnitTests", unresolved="ignore")]
# `fuzzers` feature: the fuzz targets were built (STENCIL_ENABLE_FUZZERS).
if config.enable_fuzzers:
    config.available_features.add("fuzzers")
    tools += ["stencil-parser-fuzzer", "stencil-pipeline-fuzzer",
              "stencil-run-readers-fuzzer"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# `stencil-runtime` feature: libStencilRuntime was built (the CUDA toolkit's
# cuda.h was found); %cc compiles C against its header.
if config.cuda_include:
    config.available_features.add("stencil-runtime")
    config.substitutions.append(("%cuda_include", config.cuda_include))
    # In the sanitizer build the runtime is instrumented: a C program that
    # links it links the sanitizers' runtimes too.
    cc = config.c_compiler or "cc"
    if config.sanitizer_link_flags:
        cc += " -fsanitize=address,undefined"
    config.substitutions.append(("%cc", cc))

# `nvcc` feature: nvcc beside ptxas, to compile generated headers.
if config.ptxas_executable:
    nvcc = os.path.join(os.path.dirname(config.ptxas_executable), "nvcc")
    if os.path.exists(nvcc):
        config.available_features.add("nvcc")
        config.substitutions.append(("%nvcc", nvcc))

# `stencil-run-stub` feature: the runner was built (with the CUDA toolkit)
# and the toolkit's driver stub is there, so that the runner starts without
# a driver: it parses a description and checks its options, then stops at
# cuInit. %cuda_driver_stub is the stub (soname libcuda.so.1).
stencil_run = os.path.join(config.stencil_tools_dir, "stencil-run")
if config.ptxas_executable and os.path.exists(stencil_run):
    stub = os.path.join(os.path.dirname(config.ptxas_executable), "..",
                        "lib64", "stubs", "libcuda.so")
    if os.path.exists(stub):
        config.available_features.add("stencil-run-stub")
        config.substitutions.append(("%stencil_run", stencil_run))
        config.substitutions.append(("%cuda_driver_stub",
                                     os.path.normpath(stub)))

# `ptxas` feature: PTX emitted by the GPU pipelines can be assembled.
if config.ptxas_executable and os.path.exists(config.ptxas_executable):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas_executable))

# `reference-build` feature: another build's tools to compare the emitted
# code with (STENCIL_REFERENCE_TOOLS_DIR; scripts/setup.sh --sanitize sets
# it to the plain build's when there is one).
if config.reference_tools_dir and os.path.exists(
        os.path.join(config.reference_tools_dir, "stencil-opt")):
    config.available_features.add("reference-build")
    config.substitutions.append(("%reference_tools", config.reference_tools_dir))
    config.substitutions.append(("%stencil_tools", config.stencil_tools_dir))
