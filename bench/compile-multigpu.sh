#!/usr/bin/env bash
# Compiles what bench/run-multigpu.sh runs on the 2-GPU machine (issue 19,
# one grid over several GPUs):
#   bench/compile-multigpu.sh OUT_DIR
# OUT_DIR/CASE.{ptx,launch} for each case below: every GPU pipeline on a 2-D
# and a 3-D stencil, fused steps (temporal blocking, composition, the FFT's
# spectrum) and the periodic and Dirichlet boundaries included, and the two
# kernels of the scaling runs (bench-*).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-multigpu.sh OUT_DIR}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/common.sh"

# CASE PIPELINE CHIP OPTIONS (comma-separated, - for none) EXAMPLE TYPE BOUNDARY
cases=(
  "sptc-heat2d       lower-to-sptc      sm_90  -             heat-2d    f16  halo"
  "sptc-heat2d-f2    lower-to-sptc      sm_90  fused-steps=2 heat-2d    f16  halo"
  "sptc-box2d49p     lower-to-sptc      sm_90  -             box-2d49p  f16  halo"
  "sptc-heat3d       lower-to-sptc      sm_90  -             heat-3d    f16  halo"
  "tc-box2d25p       lower-to-tc        sm_90  -             box-2d25p  f16  halo"
  "tc-bf16-heat2d    lower-to-tc        sm_90  -             heat-2d    bf16 halo"
  "tc-f64-heat2d-f2  lower-to-tc        sm_90  fused-steps=2 heat-2d    f64  halo"
  "tc-f64-heat3d     lower-to-tc        sm_90  -             heat-3d    f64  halo"
  "tc-heat3d-f2      lower-to-tc        sm_90  fused-steps=2 heat-3d    f16  halo"
  "cc-heat2d         lower-to-cuda-core sm_90  -             heat-2d    f16  halo"
  "cc-heat2d-f4      lower-to-cuda-core sm_90  fused-steps=4 heat-2d    f32  halo"
  "cc-heat2d-per     lower-to-cuda-core sm_90  -             heat-2d    f32  periodic"
  "cc-box2d9p-dir    lower-to-cuda-core sm_90  -             box-2d9p   f64  dirichlet(0.5)"
  "cc-heat3d-stream  lower-to-cuda-core sm_90  stream=on     heat-3d    f64  halo"
  "cc-heat3d-f2      lower-to-cuda-core sm_90  fused-steps=2 heat-3d    f32  halo"
  "cc-box3d27p-per   lower-to-cuda-core sm_90  -             box-3d27p  f32  periodic"
  "fft-heat2d        lower-to-fft       sm_90  fused-steps=1 heat-2d    f64  halo"
  "fft-heat2d-f4     lower-to-fft       sm_90  fused-steps=4 heat-2d    f64  halo"
  "fft-heat3d        lower-to-fft       sm_90  fused-steps=1 heat-3d    f64  halo"
  "auto-heat2d       lower-to-auto      sm_90  -             heat-2d    f16  halo"
  "auto-heat3d       lower-to-auto      sm_90  -             heat-3d    f64  halo"
  "bench-heat2d-f16  lower-to-auto      sm_90  -             heat-2d    f16  halo"
  "bench-heat3d-f64  lower-to-auto      sm_90  -             heat-3d    f64  halo"
)
for line in "${cases[@]}"; do
  read -r name pipeline chip options example type boundary <<< "$line"
  [ "$options" = - ] && options=
  options=${options//,/ }
  src=$tmp/$name.mlir
  sed -e "s/xf16>/x$type>/g" "$root/examples/$example.mlir" > "$src"
  [ "$boundary" = halo ] ||
    sed -i "s/\] : memref/] boundary $boundary : memref/" "$src"
  compile_example "$pipeline" "$src" "$name" . "$options" > "$tmp/log"
  if [ -f "$out/$name.launch" ]; then
    echo "$name: compiled ($pipeline $options, $example $type $boundary," \
      "$(sed -n 's/^unit = //p' "$out/$name.launch"))"
  else
    echo "$name: does not compile: $(cat "$tmp/log")" >&2
    exit 1
  fi
done
