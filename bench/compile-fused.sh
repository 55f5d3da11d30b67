#!/usr/bin/env bash
# Compiles the examples through the Tensor Core pipelines with fused steps by
# kernel composition (issue 17), for the GPU machine:
#   bench/compile-fused.sh OUT_DIR [CHIP (sm_90)] [STEPS ("1 2 3 4")]
# into OUT_DIR/<folder>-t<k>/<example>.{ptx,launch}, folders tc (f16, mma
# m16n8k16), tc-f64 (the f64 variant of each example: its element type
# replaced), sptc (f16, mma.sp) and, with CHIP=sm_90a, sptc-wg (the warpgroup
# kernel, mma=warpgroup). Each description names the composed kernel and its
# band kernel (docs/LaunchDescription.md); t = 1 is the unfused kernel.
# cuda-core-f64-t<k> holds --lower-to-cuda-core's temporal blocking of the
# f64 variants, the kernels the composed ones must beat, and cuda-core-t<k>
# that of every f16 example (general bodies too; the pipeline's defaults,
# so 3-D ones stream). For the 3-D examples, cuda-core-stream-t<k> and
# cuda-core-f64-stream-t<k> hold the streamed CUDA-core kernels (stream=on,
# 32 planes per block), with -p16/-p64 variants (planes=16, 64) for t <= 2,
# and cuda-core-staged-t<k> the staged f16 kernel they replace (stream=off);
# cuda-core-f64-stream-ty4-p64-t1 has bench/tune-stream.sh's best f64 tiling.
# tc-lowrank-t<k> and tc-lowrank-bf16-t<k> (k >= 2) hold the 2-D examples
# and a separable (rank-1, asymmetric) 3 x 3 box through the low-rank chain
# of their composed weights (`low-rank=true`; where the chain needs too many
# terms the pipeline warns and composes directly, where the composed radius
# exceeds 4 it is an error, listed).
# cuda-core-boundary-t<k> (k >= 2) holds them with `boundary periodic` and
# `boundary dirichlet(0.5)`. Examples a pipeline rejects (the composed innermost radius t r_x above 7,
# a general body, 1-D forms the warpgroup kernel does not take) are listed
# with the compiler's diagnostic.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-fused.sh OUT_DIR [CHIP] [STEPS]}
chip=${2:-sm_90}
steps=${3:-"1 2 3 4"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/common.sh"

# A separable box: the outer product of [0.2, 0.5, 0.3] (rows) and
# [0.15, 0.6, 0.25] (columns), rank 1 and asymmetric.
# (In a folder of its own: compile_example writes $tmp/<name>.mlir.)
mkdir -p "$tmp/sep"
cat > "$tmp/sep/sep-box-2d9p.mlir" <<'SEP'
func.func @sepbox2d9p(%in: memref<?x?xf16>, %out: memref<?x?xf16>) {
  stencil.linear %in -> %out pattern <box, rank = 2, radius = 1>
      weights [0.03, 0.12, 0.05, 0.075, 0.3, 0.125, 0.045, 0.18, 0.075]
      : memref<?x?xf16>
  return
}
SEP
for example in "$root"/examples/*.mlir "$tmp/sep/sep-box-2d9p.mlir"; do
  name=$(basename "$example" .mlir)
  if grep -q 'memref<?x?xf16>' "$example" && grep -q "stencil.linear" "$example"; then
    variant_source "$example" "$name-bf16" bf16 > /dev/null
    for t in $steps; do
      [ "$t" -gt 1 ] || continue
      compile_example lower-to-tc "$example" "$name" "tc-lowrank-t$t" \
        "low-rank=true fused-steps=$t"
      compile_example lower-to-tc "$tmp/$name-bf16.src.mlir" "$name-bf16" \
        "tc-lowrank-bf16-t$t" "low-rank=true fused-steps=$t"
    done
  fi
  [ "$name" != sep-box-2d9p ] || continue
  if ! grep -q "stencil.linear" "$example"; then
    # A general body: only the CUDA-core pipeline takes it.
    for t in $steps; do
      compile_example lower-to-cuda-core "$example" "$name" "cuda-core-t$t" \
        "fused-steps=$t"
    done
    continue
  fi
  variant_source "$example" "$name-f64" f64 > /dev/null
  # The CUDA-core pipeline's fused steps with the other two boundaries
  # (the Tensor Core pipelines take only halo).
  for boundary in periodic 'dirichlet(0.5)'; do
    variant_source "$example" "$name-${boundary%%(*}" f16 "$boundary" > /dev/null
    for t in $steps; do
      [ "$t" -gt 1 ] || continue
      compile_example lower-to-cuda-core "$tmp/$name-${boundary%%(*}.src.mlir" \
        "$name-${boundary%%(*}" "cuda-core-boundary-t$t" "fused-steps=$t"
    done
  done
  for t in $steps; do
    compile_example lower-to-tc "$example" "$name" "tc-t$t" "fused-steps=$t"
    compile_example lower-to-tc "$tmp/$name-f64.src.mlir" "$name-f64" "tc-f64-t$t" \
      "fused-steps=$t"
    compile_example lower-to-sptc "$example" "$name" "sptc-t$t" "fused-steps=$t"
    compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" \
      "cuda-core-f64-t$t" "fused-steps=$t"
    compile_example lower-to-cuda-core "$example" "$name" "cuda-core-t$t" \
      "fused-steps=$t"
    if grep -q 'memref<?x?x?x' "$example"; then
      compile_example lower-to-cuda-core "$example" "$name" \
        "cuda-core-staged-t$t" "fused-steps=$t stream=off"
      for planes in 32 16 64; do
        suffix=""; [ "$planes" = 32 ] || suffix="-p$planes"
        [ "$planes" = 32 ] || [ "$t" -le 2 ] || continue
        compile_example lower-to-cuda-core "$example" "$name" \
          "cuda-core-stream$suffix-t$t" "fused-steps=$t stream=on planes=$planes"
        compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" \
          "cuda-core-f64-stream$suffix-t$t" "fused-steps=$t stream=on planes=$planes"
      done
      # The tilings bench/tune-stream.sh found best for f64 Box-3D27P, and
      # the one of 2026-11-25-h100-box3d1r-tilings.txt (bench/NOTES.md),
      # without the prefetched planes, which cost it 5% (2026-11-27).
      [ "$t" != 1 ] || compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" \
        "$name-f64" cuda-core-f64-stream-ty4-p64-t1 \
        "stream=on threads-y=4 planes=64"
      [ "$t" != 1 ] || compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" \
        "$name-f64" cuda-core-f64-stream-ty2-o8-t1 \
        "stream=on threads-y=2 outputs-per-thread=8 prefetch-planes=false"
    fi
    if [ "$chip" = sm_90a ]; then
      compile_example lower-to-sptc "$example" "$name" "sptc-wg-t$t" \
        "fused-steps=$t mma=warpgroup"
    fi
  done
done
