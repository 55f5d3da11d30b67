#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks (LLVM/MLIR 22 from Debian's
# packages, ninja, GoogleTest), then configures and builds the project.
#   BUILD_DIR   build directory (default: <repo>/build, or <repo>/build-sanitize
#               with --sanitize)
#   REFERENCE_BUILD_DIR  with --sanitize: a build whose emitted code the
#               sanitizer build's is compared with (builds-agree.test;
#               e.g. <repo>/build, the gcc build)
#   --sanitize  the sanitizer build: clang-22 with ASan + UBSan
#               (LLVM_USE_SANITIZER="Address;Undefined", every UB report
#               fatal) and libFuzzer coverage (LLVM_USE_SANITIZE_COVERAGE), so
#               the fuzz targets are real libFuzzer binaries (scripts/fuzz.sh)
#   --subset    with --sanitize: the sanitizer build without the fuzz targets
#               and their coverage (STENCIL_ENABLE_FUZZERS=OFF; default
#               directory <repo>/build-sanitize-subset), for the covering
#               subset of the tests that CI runs (scripts/test.sh)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/build-options.sh"
parse_build_options "$root" "$@"

packages=(cmake ninja-build g++ python3 libgtest-dev libboost-graph-dev
          llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools)
((sanitize)) && packages+=(clang-22 libclang-rt-22-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

extra=()
if ((sanitize)); then
  extra=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22
         "-DLLVM_USE_SANITIZER=Address;Undefined"
         # LLVM's own build defines these; an out-of-tree project must.
         "-DLLVM_UBSAN_FLAGS=-fsanitize=undefined -fno-sanitize=vptr,function -fno-sanitize-recover=all"
         # -O1, as the sanitizers advise: a quicker build, and reports
         # that still name the right lines.
         "-DCMAKE_C_FLAGS_RELEASE=-O1 -DNDEBUG"
         "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG")
  if ((subset)); then
    extra+=(-DLLVM_USE_SANITIZE_COVERAGE=OFF -DSTENCIL_ENABLE_FUZZERS=OFF)
  else
    extra+=(-DLLVM_USE_SANITIZE_COVERAGE=ON -DSTENCIL_ENABLE_FUZZERS=ON)
  fi
  # Another build's tools, when asked: builds-agree.test compares the code
  # both emit (clang's build against gcc's).
  extra+=("-DSTENCIL_REFERENCE_TOOLS_DIR=${REFERENCE_BUILD_DIR:+$REFERENCE_BUILD_DIR/bin}")
fi
# An existing build directory is reused (configured again, built
# incrementally) when it is a Ninja build of this source tree; anything else
# is left alone, with a message.
if [ -f "$build/CMakeCache.txt" ]; then
  cached_source=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
  cached_generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build/CMakeCache.txt")
  if [ "$cached_source" != "$root" ] || [ "$cached_generator" != Ninja ]; then
    echo "setup: $build holds a build of '${cached_source:-?}' with the" \
         "'${cached_generator:-?}' generator, not a Ninja build of $root;" \
         "remove it or choose another directory with BUILD_DIR=..." >&2
    exit 2
  fi
  cached_cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  if ((sanitize)) && [[ "$cached_cxx" != *clang* ]]; then
    echo "setup: $build was configured with $cached_cxx, not clang: the" \
         "sanitizer build needs a directory of its own (default:" \
         "$root/build-sanitize)" >&2
    exit 2
  fi
fi
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${extra[@]}"
cmake --build "$build"
