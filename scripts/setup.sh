#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks (LLVM/MLIR 22 from Debian's
# packages, ninja, GoogleTest), then configures and builds the project.
#   BUILD_DIR   build directory (default: <repo>/build, or <repo>/build-sanitize
#               with --sanitize)
#   --sanitize  the sanitizer build: clang-22 with ASan + UBSan
#               (LLVM_USE_SANITIZER="Address;Undefined", every UB report
#               fatal) and libFuzzer coverage (LLVM_USE_SANITIZE_COVERAGE), so
#               the fuzz targets are real libFuzzer binaries (scripts/fuzz.sh)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
sanitize=0
for arg in "$@"; do
  case "$arg" in
    --sanitize) sanitize=1 ;;
    *) echo "setup.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done
if ((sanitize)); then
  build=${BUILD_DIR:-$root/build-sanitize}
else
  build=${BUILD_DIR:-$root/build}
fi

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
         -DLLVM_USE_SANITIZE_COVERAGE=ON)
fi
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${extra[@]}"
cmake --build "$build"
