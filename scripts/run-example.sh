#!/usr/bin/env bash
# The main job on a bundled example: build, lower a stencil with
# `stencil-opt --lower-to-cpu`, run it with mlir-runner, print some of the
# result and whether it matches the independent reference.
#   scripts/run-example.sh [EXAMPLE.mlir] [GRID]
# e.g. scripts/run-example.sh examples/box-2d49p.mlir 300,200
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
example=${1:-$root/examples/box-2d9p.mlir}
if [ ! -f "$example" ]; then
  echo "run-example.sh: no such file: '$example' (the bundled examples are in" \
       "$root/examples)" >&2
  exit 2
fi
"$root/scripts/setup.sh" >/dev/null

rank=$(grep -o 'memref<[?x0-9]*' "$example" | head -1 | tr -cd 'x' | wc -c)
case $rank in
  1) default_grid=100000 ;;
  2) default_grid=512,512 ;;
  *) default_grid=64,64,64 ;;
esac
grid=${2:-$default_grid}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
llvm=/usr/lib/llvm-22
echo "== lowering $example (grid $grid) with stencil-opt --lower-to-cpu"
"$build/bin/stencil-opt" "$example" \
  --stencil-attach-cpu-harness="grid=$grid" --lower-to-cpu -o "$work/cpu.mlir"
echo "== running with mlir-runner"
"$llvm/bin/mlir-runner" "$work/cpu.mlir" -e main -entry-point-result=void \
  -shared-libs="$llvm/lib/libmlir_runner_utils.so,$llvm/lib/libmlir_c_runner_utils.so" \
  > "$work/result.txt"
echo "== checking against utils/stencil-ref.py"
ref=(--from-mlir "$example")
if grep -q '^// REF-BODY:' "$example"; then
  ref=(--dtype "$(grep -oE '(bf16|f16|f32|f64)>' "$example" | head -1 | tr -d '>')"
       --pattern "$(sed -n 's|^// REF-PATTERN: *||p' "$example")"
       --body "$(sed -n 's|^// REF-BODY: *||p' "$example")")
fi
python3 "$root/utils/stencil-ref.py" --result "$work/result.txt" --grid "$grid" \
  --show 6 "${ref[@]}"
