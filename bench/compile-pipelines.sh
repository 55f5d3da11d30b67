#!/usr/bin/env bash
# Compiles every example through every GPU pipeline that takes it, for the
# same-run comparison of issue #4, into OUT_DIR/<pipeline>/:
#   bench/compile-pipelines.sh OUT_DIR [CHIP (sm_90)]
# f16 examples go through --lower-to-sptc, --lower-to-tc and
# --lower-to-cuda-core; the CUDA-core pipeline also gets bf16, f32 and f64
# variants (the example file with its element type replaced, suffix -TYPE),
# and --lower-to-tc the bf16 and f64 ones. cuda-core-tb/ holds the CUDA-core pipeline
# with temporal blocking for every example and the f64 variants:
# fused-steps=4, or 2 where four steps' halo does not fit in shared memory
# (3-D, large f64 radii), or 2 with an 8 x 32 tile (3-D f64). tc-lowrank/
# holds --lower-to-tc low-rank=true for the examples whose weight matrix
# has low rank (the others keep the direct kernel there and are dropped).
# cuda-core-bc/ holds the CUDA-core pipeline on periodic and Dirichlet
# variants (suffix -periodic, -dirichlet: the example with `boundary
# periodic` / `boundary dirichlet(0.5)`) of BOUNDARY_EXAMPLES, one step per
# launch and (suffix -tb) fused-steps=2.
# Examples a pipeline rejects are listed with the compiler's diagnostic.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-pipelines.sh OUT_DIR [CHIP]}
chip=${2:-sm_90}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/common.sh"

compile_tb() { # source name: the first of these options that fits
  rm -f "$out/cuda-core-tb/$2.ptx" "$out/cuda-core-tb/$2.launch"
  local options
  for options in fused-steps=4 fused-steps=2 \
      "fused-steps=2 threads-y=4 outputs-per-thread=2"; do
    compile_example lower-to-cuda-core "$1" "$2" cuda-core-tb "$options"
    if [ -f "$out/cuda-core-tb/$2.launch" ]; then return; fi
  done
}

boundary_examples=${BOUNDARY_EXAMPLES:-"heat-1d 1d7p heat-2d box-2d49p general-2d heat-3d box-3d27p"}
for name in $boundary_examples; do
  for boundary in periodic 'dirichlet(0.5)'; do
    suffix=${boundary%%(*}
    sed -e "s/\] : memref/] boundary $boundary : memref/" \
        -e "s/-> %out : memref/-> %out boundary $boundary : memref/" \
        "$root/examples/$name.mlir" > "$tmp/$name-$suffix.src.mlir"
    grep -q "boundary $suffix" "$tmp/$name-$suffix.src.mlir" ||
      { echo "cannot add a boundary to $name"; exit 1; }
    compile_example lower-to-cuda-core "$tmp/$name-$suffix.src.mlir" "$name-$suffix" cuda-core-bc
    compile_example lower-to-cuda-core "$tmp/$name-$suffix.src.mlir" "$name-$suffix-tb" cuda-core-bc fused-steps=2
  done
done

for example in "$root"/examples/*.mlir; do
  name=$(basename "$example" .mlir)
  for pipeline in lower-to-sptc lower-to-tc lower-to-cuda-core; do
    compile_example "$pipeline" "$example" "$name"
  done
  compile_tb "$example" "$name"
  compile_example lower-to-tc "$example" "$name" tc-lowrank low-rank=true
  if [ -f "$out/tc-lowrank/$name.launch" ] &&
      ! grep -q '^chain_abs_sum' "$out/tc-lowrank/$name.launch"; then
    echo "  (not of low rank: dropped from tc-lowrank)"
    rm -f "$out/tc-lowrank/$name.ptx" "$out/tc-lowrank/$name.launch"
  fi
  grep -q f16 "$example" || continue
  for type in bf16 f32 f64; do
    sed "s/f16/$type/g" "$example" > "$tmp/$name-$type.src.mlir"
    compile_example lower-to-cuda-core "$tmp/$name-$type.src.mlir" "$name-$type"
    if [ "$type" = f64 ] || [ "$type" = bf16 ]; then
      compile_example lower-to-tc "$tmp/$name-$type.src.mlir" "$name-$type"
    fi
  done
  compile_tb "$tmp/$name-f64.src.mlir" "$name-f64"
done
