#!/usr/bin/env bash
# Compiles what bench/run-apps.sh runs on the GPU machine (issue 18):
#   bench/compile-apps.sh OUT_DIR [CHIP (sm_90)]
# OUT_DIR/heat2d.h (Heat-2D through --lower-to-sptc=fused-steps=2, entry
# point stencil_kernels::heat2d), heat2d.{ptx,launch} (the same kernel),
# heat2d-cc.{ptx,launch} (--lower-to-cuda-core).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-apps.sh OUT_DIR [CHIP]}
chip=${2:-sm_90}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/common.sh"
compile_example lower-to-sptc "$root/examples/heat-2d.mlir" heat2d . \
  "fused-steps=2"
compile_example lower-to-cuda-core "$root/examples/heat-2d.mlir" heat2d-cc .
# The header of the same kernel, from the module compile_example left.
"$build/bin/stencil-translate" --to-c-header --header-function=heat2d \
  "$tmp/heat2d.mlir" -o "$out/heat2d.h"
