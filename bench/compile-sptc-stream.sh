#!/usr/bin/env bash
# Compiles the 3-D stencils of bench/compile-sptc-layouts.sh's set with each
# z-stream length K (--stencil-sptc-tile sub-tiles: output planes a block
# streams, 1 = no streaming) into OUT_DIR/<variant>-k<K>/<name>.{ptx,launch}
# for variants sptc-swap, sptc-auto and tc:
#   bench/compile-sptc-stream.sh OUT_DIR [CHIP (sm_90)] [K... (1 8 16 32 64)]
# Run the result with VARIANTS="$(ls OUT_DIR | grep -- -k)" and
# bench/run-sptc-layouts.sh (check, table).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: compile-sptc-stream.sh OUT_DIR [CHIP] [K...]}
source "$root/bench/common.sh"
begin_compile "${2:-sm_90}"
shift $(( $# >= 2 ? 2 : 1 ))
lengths=${*:-1 8 16 32 64}
mkdir -p "$out/src"
python3 "$root/utils/gen-sparstencil-suite.py" "$out/src" > /dev/null
cp "$root"/examples/*.mlir "$out/src/"
for src in "$out"/src/*.mlir; do
  name=$(basename "$src" .mlir)
  grep -q "rank = 3\|memref<?x?x?x" "$src" && [ "$name" != general-2d ] || continue
  for variant in sptc-swap sptc-auto tc; do
    for k in $lengths; do
      case $variant in
        sptc-swap) pipeline="lower-to-sptc=layout=strided-swap chip=$chip" ;;
        sptc-auto) pipeline="lower-to-sptc=layout=auto chip=$chip" ;;
        tc) pipeline="lower-to-tc=chip=$chip" ;;
      esac
      folder=$out/$variant-k$k
      mkdir -p "$folder"
      mlir=$out/$name.$variant-k$k.mlir
      "$build/bin/stencil-opt" "$src" "--$pipeline sub-tiles=$k" -o "$mlir"
      "$build/bin/stencil-translate" --to-ptx "$mlir" -o "$folder/$name.ptx"
      "$build/bin/stencil-translate" --to-launch "$mlir" --ptx-file "$name.ptx" \
        -o "$folder/$name.launch"
      rm -f "$mlir"
    done
  done
done
echo "compiled: $(ls "$out"/*-k*/*.launch | wc -l) kernels"
