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
"$build/bin/stencil-opt" "$root/examples/heat-2d.mlir" \
  --lower-to-sptc="chip=$chip fused-steps=2" -o "$tmp/heat2d.mlir"
"$build/bin/stencil-translate" --to-c-header --header-function=heat2d \
  "$tmp/heat2d.mlir" -o "$out/heat2d.h"
"$build/bin/stencil-translate" --to-ptx "$tmp/heat2d.mlir" -o "$out/heat2d.ptx"
"$build/bin/stencil-translate" --to-launch "$tmp/heat2d.mlir" \
  --ptx-file heat2d.ptx -o "$out/heat2d.launch"
"$build/bin/stencil-opt" "$root/examples/heat-2d.mlir" \
  --lower-to-cuda-core="chip=$chip" -o "$tmp/heat2d-cc.mlir"
"$build/bin/stencil-translate" --to-ptx "$tmp/heat2d-cc.mlir" -o "$out/heat2d-cc.ptx"
"$build/bin/stencil-translate" --to-launch "$tmp/heat2d-cc.mlir" \
  --ptx-file heat2d-cc.ptx -o "$out/heat2d-cc.launch"
echo "compiled into $out"
