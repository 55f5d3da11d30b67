#!/usr/bin/env bash
# Compiles the 2-D linear examples through --lower-to-cuda-core with the row
# sweep (stream=on in 2-D: AN5D's register streaming, issue 17), for the GPU
# machine:
#   bench/compile-rowstream.sh OUT_DIR [CHIP (sm_90)] [STEPS ("1 2 3 4")]
# into OUT_DIR/<folder>/<example>.{ptx,launch}:
#   cuda-core-rows-t<k>           the f16 examples, k fused steps
#   cuda-core-f64-rows-t<k>       their f64 variants (element type replaced)
#   cuda-core-f32-rows-t<k>       their f32 variants
#   cuda-core-rows-boundary-t<k>  f16 and f64 with `boundary periodic` and
#                                 `boundary dirichlet(0.5)`
#   cuda-core-f64-rows-tune-*     f64 tilings for the table (threads, rows
#                                 per block, more fused steps; env
#                                 TUNE_TILINGS, one per line, TUNE_STEPS,
#                                 TUNE_NAMES; TUNE_ONLY=1 compiles only
#                                 these, without the staged and TC peers)
#   cuda-core-f64-t<k>, tc-f64-t<k>  the staged CUDA-core kernels and the
#                                 composed Tensor Core ones of those shapes
#                                 (as bench/compile-fused.sh), to compare
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-rowstream.sh OUT_DIR [CHIP] [STEPS]}
chip=${2:-sm_90}
steps=${3:-"1 2 3 4"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/common.sh"

for example in "$root"/examples/*.mlir; do
  grep -q "stencil.linear" "$example" || continue
  grep -q 'memref<?x?xf16>' "$example" || continue
  name=$(basename "$example" .mlir)
  variant_source "$example" "$name-f64" f64 > /dev/null
  # TUNE_ONLY=1: only the f64 tilings below (their sources are made here).
  [ -z "${TUNE_ONLY:-}" ] || continue
  variant_source "$example" "$name-f32" f32 > /dev/null
  for boundary in periodic 'dirichlet(0.5)'; do
    for type in f16 f64; do
      variant_source "$example" "$name-$type-${boundary%%(*}" "$type" "$boundary" \
        > /dev/null
    done
  done
  for t in $steps; do
    compile_example lower-to-cuda-core "$example" "$name" "cuda-core-rows-t$t" \
      "fused-steps=$t stream=on"
    compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" \
      "cuda-core-f64-rows-t$t" "fused-steps=$t stream=on"
    compile_example lower-to-cuda-core "$tmp/$name-f32.src.mlir" "$name-f32" \
      "cuda-core-f32-rows-t$t" "fused-steps=$t stream=on"
    for boundary in periodic dirichlet; do
      for type in f16 f64; do
        compile_example lower-to-cuda-core \
          "$tmp/$name-$type-$boundary.src.mlir" "$name-$type-$boundary" \
          "cuda-core-rows-boundary-t$t" "fused-steps=$t stream=on"
      done
    done
  done
done

# Tilings of the f64 table shapes (LoRAStencil's box2d1r, star2d1r, box2d3r,
# star2d3r): rows per block, threads per block, and more fused steps.
# TUNE_STEPS and TUNE_TILINGS (one tiling per line) replace the defaults.
tilings=${TUNE_TILINGS:-"planes=128
planes=256
planes=64
threads-y=4 planes=128
threads-y=16 planes=128"}
for name in ${TUNE_NAMES:-box-2d9p heat-2d box-2d49p star-2d13p}; do
  for t in ${TUNE_STEPS:-1 2 3 4 6 8}; do
    case $name in box-2d49p|star-2d13p)
      [ -n "${TUNE_NAMES:-}" ] || [ "$t" -le 4 ] || continue ;; esac
    if [ -z "${TUNE_ONLY:-}" ]; then
      compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" \
        "$name-f64" "cuda-core-f64-t$t" "fused-steps=$t"
      compile_example lower-to-tc "$tmp/$name-f64.src.mlir" "$name-f64" \
        "tc-f64-t$t" "fused-steps=$t"
    fi
    while IFS= read -r tiling; do
      tag=$(echo "$tiling" | tr -d ' =' | sed 's/threads-y/ty/;s/planes/p/')
      compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" \
        "cuda-core-f64-rows-tune-$tag-t$t" "fused-steps=$t stream=on $tiling"
    done <<< "$tilings"
  done
done
