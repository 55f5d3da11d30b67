#!/usr/bin/env bash
# Compiles every example that a GPU pipeline takes into PTX + launch
# description, for the GPU machine (which has no LLVM/MLIR):
#   bench/compile-examples.sh OUT_DIR [PIPELINE (lower-to-sptc)] [CHIP (sm_90)]
# Writes OUT_DIR/<example>.ptx and OUT_DIR/<example>.launch; examples the
# pipeline rejects are listed with the compiler's diagnostic.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: compile-examples.sh OUT_DIR [PIPELINE] [CHIP]}
pipeline=${2:-lower-to-sptc}
source "$root/bench/common.sh"
begin_compile "${3:-sm_90}"
mkdir -p "$out"
for example in "$root"/examples/*.mlir; do
  name=$(basename "$example" .mlir)
  if ! "$build/bin/stencil-opt" "$example" --"$pipeline"="chip=$chip" \
      -o "$out/$name.mlir" 2> "$out/$name.err"; then
    echo "skipped $name: $(head -1 "$out/$name.err")"
    continue
  fi
  "$build/bin/stencil-translate" --to-ptx "$out/$name.mlir" -o "$out/$name.ptx"
  "$build/bin/stencil-translate" --to-launch "$out/$name.mlir" \
    --ptx-file "$name.ptx" -o "$out/$name.launch"
  rm -f "$out/$name.err" "$out/$name.mlir"
  echo "compiled $name"
done
