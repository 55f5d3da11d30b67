#!/usr/bin/env bash
# Compiles the examples and SparStencil's benchmark families
# (utils/gen-sparstencil-suite.py) for the comparison of issue #14, into
# OUT_DIR/<variant>/<name>.{ptx,launch}:
#   bench/compile-sptc-layouts.sh OUT_DIR [CHIP (sm_90)]
# Variants: sptc-swap (--lower-to-sptc layout=strided-swap), sptc-match
# (layout=matching), sptc-auto (the default, layout=auto), tc
# (--lower-to-tc) and cuda-core (--lower-to-cuda-core). The f16 examples
# whose bodies are linear are taken (general-2d is not). OUT_DIR/report.txt
# is --stencil-sptc-report of every stencil. Run the result with
# bench/run-sptc-layouts.sh on the GPU machine.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: compile-sptc-layouts.sh OUT_DIR [CHIP]}
source "$root/bench/common.sh"
begin_compile "${2:-sm_90}"
mkdir -p "$out/src"
python3 "$root/utils/gen-sparstencil-suite.py" "$out/src" > /dev/null
for f in "$root"/examples/*.mlir; do
  [ "$(basename "$f")" = general-2d.mlir ] || cp "$f" "$out/src/"
done
: > "$out/report.txt"
for src in "$out"/src/*.mlir; do
  name=$(basename "$src" .mlir)
  "$build/bin/stencil-opt" "$src" --stencil-linearize --stencil-sptc-report \
    -o /dev/null >> "$out/report.txt" 2>&1 || echo "report failed: $name"
  for variant in sptc-swap sptc-match sptc-auto tc cuda-core; do
    case $variant in
      sptc-swap) pipeline="lower-to-sptc=chip=$chip layout=strided-swap" ;;
      sptc-match) pipeline="lower-to-sptc=chip=$chip layout=matching" ;;
      sptc-auto) pipeline="lower-to-sptc=chip=$chip" ;;
      tc) pipeline="lower-to-tc=chip=$chip" ;;
      cuda-core) pipeline="lower-to-cuda-core=chip=$chip" ;;
    esac
    mkdir -p "$out/$variant"
    if ! "$build/bin/stencil-opt" "$src" "--$pipeline" -o "$out/$name.$variant.mlir" \
        2> "$out/$name.err"; then
      echo "$variant: skipped $name: $(grep -m1 error "$out/$name.err")"
      continue
    fi
    "$build/bin/stencil-translate" --to-ptx "$out/$name.$variant.mlir" \
      -o "$out/$variant/$name.ptx"
    "$build/bin/stencil-translate" --to-launch "$out/$name.$variant.mlir" \
      --ptx-file "$name.ptx" -o "$out/$variant/$name.launch"
    rm -f "$out/$name.$variant.mlir" "$out/$name.err"
  done
done
echo "compiled: $(ls "$out"/*/*.launch | wc -l) kernels"
