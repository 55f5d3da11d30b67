#!/usr/bin/env bash
# replaceable-weights.test: compiles kernels twice, with weights A and B,
# and prints whether their PTX differs only in the .const weights array.
#   replaceable-weights.sh SRC_DIR OUT_DIR BIN_DIR
set -euo pipefail
src=$1 out=$2 bin=$3
weights() { # FILE VALUE: the first weight replaced by VALUE
  perl -0pe "s/weights \\[\\s*[-0-9.e]+,/weights [$2,/" "$1"
}
for w in a b; do
  v=$([ $w = a ] && echo 0.11 || echo -0.37)
  weights "$src/examples/heat-2d.mlir" "$v" > "$out/h2-$w.src.mlir"
  weights "$src/examples/heat-2d.mlir" "$v" | sed 's/xf16>/xf32>/g' \
    > "$out/f32-$w.src.mlir"
  weights "$src/examples/box-3d27p.mlir" "$v" | sed 's/xf16>/xf64>/g' \
    > "$out/s3-$w.src.mlir"
  weights "$src/examples/box-3d27p.mlir" "$v" | sed 's/xf16>/xf32>/g' \
    > "$out/p3-$w.src.mlir"
  weights "$src/examples/1d7p.mlir" "$v" | sed 's/xf16>/xf64>/g' \
    > "$out/d1-$w.src.mlir"
  "$bin/stencil-opt" "$out/h2-$w.src.mlir" --lower-to-cuda-core -o "$out/h2-$w.mlir"
  "$bin/stencil-opt" "$out/f32-$w.src.mlir" --lower-to-cuda-core=fused-steps=2 \
    -o "$out/f32-$w.mlir"
  "$bin/stencil-opt" "$out/s3-$w.src.mlir" --lower-to-cuda-core=stream=on \
    -o "$out/s3-$w.mlir"
  "$bin/stencil-opt" "$out/p3-$w.src.mlir" --lower-to-cuda-core=stream=off \
    -o "$out/p3-$w.mlir"
  "$bin/stencil-opt" "$out/d1-$w.src.mlir" --lower-to-cuda-core -o "$out/d1-$w.mlir"
  for k in h2 f32 s3 p3 d1; do
    "$bin/stencil-translate" --to-ptx "$out/$k-$w.mlir" -o "$out/$k-$w.ptx"
  done
done
for k in h2 f32 s3 p3 d1; do
  cmp -s "$out/$k-a.ptx" "$out/$k-b.ptx" && same=yes || same=no
  grep -v '^\.visible \.const' "$out/$k-a.ptx" > "$out/$k-a.code"
  grep -v '^\.visible \.const' "$out/$k-b.ptx" > "$out/$k-b.code"
  cmp -s "$out/$k-a.code" "$out/$k-b.code" && code=same || code=different
  echo "$k: ptx identical: $same; without the weights array: $code"
done
