#!/usr/bin/env bash
# Compiles what bench/run-repack.sh runs on the GPU machine (issue 18,
# weights replaced at run time):
#   bench/compile-repack.sh OUT_DIR
# For each case (pipeline, example, element type) OUT_DIR/CASE/ holds
#   a.{ptx,launch}  the example compiled with weights A (random, asymmetric)
#   b.{ptx,launch}  the same compiled with weights B
#   b.weights       B as the comma list stencil-run --weights takes
# run-repack.sh runs a.launch with --weights B and b.launch as compiled and
# compares the results bit for bit. OUT_DIR/ab/{imm,cst}-NAME.{ptx,launch}:
# CUDA-core kernels with the weights as immediates and from the .const
# array (replaceable-weights=false / true), which run-repack.sh times. Weights come from utils-free Python
# (random.Random(case)), uniform in magnitude in (0.05, 1), a third
# negative, scaled to Sum |w| = 1 (so that f16 values stay bounded).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-repack.sh OUT_DIR}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$root/bench/common.sh"

# CASE PIPELINE CHIP OPTIONS (comma-separated, - for none) EXAMPLE TYPE
cases=(
  "sptc-heat2d        lower-to-sptc      sm_90  -                        heat-2d      f16"
  "sptc-box2d49p      lower-to-sptc      sm_90  -                        box-2d49p    f16"
  "sptc-heat3d        lower-to-sptc      sm_90  -                        heat-3d      f16"
  "sptc-1d7p          lower-to-sptc      sm_90  -                        1d7p         f16"
  "sptc-irregular     lower-to-sptc      sm_90  -                        irregular-2d f16"
  "sptc-match-box2d9p lower-to-sptc      sm_90  layout=matching          box-2d9p     f16"
  "sptc-match-star13  lower-to-sptc      sm_90  layout=matching          star-2d13p   f16"
  "sptc-wgmma-box225p lower-to-sptc      sm_90a mma=warpgroup            box-2d225p   f16"
  "tc-box2d25p        lower-to-tc        sm_90  -                        box-2d25p    f16"
  "tc-bf16-heat2d     lower-to-tc        sm_90  -                        heat-2d      bf16"
  "tc-f64-box2d9p     lower-to-tc        sm_90  -                        box-2d9p     f64"
  "tc-f64-heat3d      lower-to-tc        sm_90  -                        heat-3d      f64"
  "tc-f64-1d5p        lower-to-tc        sm_90  -                        1d5p         f64"
  "tc-f64-box2d49p    lower-to-tc        sm_90  -                        box-2d49p    f64"
  "cc-heat2d          lower-to-cuda-core sm_90  -                        heat-2d      f16"
  "cc-box2d49p-f64    lower-to-cuda-core sm_90  -                        box-2d49p    f64"
  "cc-heat3d-stream   lower-to-cuda-core sm_90  stream=on                heat-3d      f64"
  "cc-box3d27p-f32    lower-to-cuda-core sm_90  -                        box-3d27p    f32"
  "cc-1d7p-fused      lower-to-cuda-core sm_90  fused-steps=2            1d7p         f32"
  "cc-irregular-f64   lower-to-cuda-core sm_90  -                        irregular-2d f64"
  "cc-star13-bf16     lower-to-cuda-core sm_90  -                        star-2d13p   bf16"
)
for line in "${cases[@]}"; do
  read -r name pipeline chip options example type <<< "$line"
  [ "$options" = - ] && options=
  options=${options//,/ }
  dir=$out/$name
  mkdir -p "$dir"
  for which in a b; do
    python3 - "$root/examples/$example.mlir" "$type" "$name-$which" \
        "$tmp/src-$which.mlir" "$dir/$which.weights" <<'PY'
import random, re, sys
src, etype, seed, dst, wfile = sys.argv[1:]
text = open(src).read()
n = len(re.search(r"weights \[([^\]]*)\]", text).group(1).split(","))
rng = random.Random(seed)
w = [rng.uniform(0.05, 1.0) * (-1 if rng.random() < 1 / 3 else 1)
     for _ in range(n)]
w = [x / sum(abs(y) for y in w) for x in w]  # Sum |w| = 1: values stay bounded
text = re.sub(r"weights \[[^\]]*\]",
              "weights [" + ", ".join(repr(x) for x in w) + "]", text)
text = text.replace("xf16>", "x" + etype + ">")
open(dst, "w").write(text)
open(wfile, "w").write(",".join(repr(x) for x in w) + "\n")
PY
    compile_example "$pipeline" "$tmp/src-$which.mlir" "$which" "$name" \
      "$options" > /dev/null
    [ -f "$dir/$which.launch" ] || { echo "$name: $which does not compile" >&2; exit 1; }
  done
  rm "$dir/a.weights"
  grep -q '^repack = \|^weights_global = ' "$dir/a.launch" ||
    { echo "$name: no repacking recipe or weights global" >&2; exit 1; }
  echo "$name: compiled ($pipeline chip=$chip $options, $example, $type)"
done

# The cost of reading the weights from the .const array.
chip=sm_90
for line in "box-2d49p f64" "box-2d49p f32" "heat-2d f32" "star-2d13p f64" \
            "heat-3d f64 stream=on" "box-3d27p f32" "1d7p f64"; do
  read -r example type options <<< "$line"
  sed "s/xf16>/x$type>/g" "$root/examples/$example.mlir" > "$tmp/ab.mlir"
  for mode in imm cst; do
    flag=$([ $mode = imm ] && echo false || echo true)
    name=$mode-$example-$type
    compile_example lower-to-cuda-core "$tmp/ab.mlir" "$name" ab \
      "replaceable-weights=$flag${options:+ $options}" > /dev/null
    [ -f "$out/ab/$name.launch" ] || { echo "ab: $name does not compile" >&2; exit 1; }
  done
  echo "ab: $example $type $options"
done
