#!/usr/bin/env bash
# Correctness of the 3-D CUDA-core kernels after a change to their sweep
# (issue 17): --lower-to-cuda-core's defaults (default/), plane-sums=true
# (sums/), 2 fused steps (t2/) and the f16 tilings of the tables
# (ty2-o8/: threads-y=2 outputs-per-thread=8) for Heat-3D and Box-3D27P
# (f16, f64), a radius-2 periodic star (f32) and an irregular radius-2
# pattern (f32 Dirichlet(0.25), f64 halo); and the plane sums without
# prefetch (sums-nopf/) and with prefetch-distance=2 (sums-d2/), the 2 x 8
# tiling with prefetch-distance=3 (ty2-o8-d3/); the plane sums with vector
# columns (sums-w2/, sums-w4/, sums-w8/: vector-width=2, 4, 8, and
# sums-w4-ty2-o2-d2/):
#   bench/check-3d.sh compile ART_DIR [CHIP (sm_90)]   (here)
#   bench/check-3d.sh run ART_DIR                      (GPU machine)
# run checks each kernel against stencil-run's f64 reference, 2 x
# steps_per_launch steps, at the odd size and at small and thin grids at
# least the stencil's width along each dimension (smaller ones are refused
# by design) and at three whose rows are a multiple of 8 (vector columns'
# aligned path; 263 and the others take the element-wise one), then compute-sanitizer memcheck on four of them; CHECK lines
# and a PASS count in $OUT/check-3d.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: check-3d.sh compile|run ART_DIR [CHIP]}
out=${2:?usage: check-3d.sh compile|run ART_DIR [CHIP]}
source "$root/bench/common.sh"

if [ "$mode" = compile ]; then
  begin_compile "${3:-}"
  sources=("$root/examples/heat-3d.mlir" "$root/examples/box-3d27p.mlir"
           "$root/test/Examples/Inputs/star-3d13p-periodic.mlir")
  for name in heat-3d box-3d27p; do
    sources+=("$(variant_source "$root/examples/$name.mlir" "$name-f64" f64)")
  done
  irregular='pattern <[[-2, 1, 0], [-1, -1, 2], [0, 0, 0], [0, 2, -1], [1, 0, 1], [2, -1, -2], [1, 1, 0]]> weights [0.21, 0.08, 0.07, 0.06, 0.09, 0.24, 0.25]'
  # Sources are *.src.mlir: compile_example writes $tmp/NAME.mlir.
  cat > "$tmp/irr3-f32.src.mlir" <<MLIR
func.func @irr3(%in: memref<?x?x?xf32>, %out: memref<?x?x?xf32>) {
  stencil.linear %in -> %out $irregular boundary dirichlet(0.25) : memref<?x?x?xf32>
  return
}
MLIR
  sed -e "s/f32/f64/g" -e "s/ boundary dirichlet(0.25)//" "$tmp/irr3-f32.src.mlir" > "$tmp/irr3-f64.src.mlir"
  sources+=("$tmp/irr3-f32.src.mlir" "$tmp/irr3-f64.src.mlir")
  for src in "${sources[@]}"; do
    name=$(basename "${src%.src.mlir}" .mlir)
    compile_example lower-to-cuda-core "$src" "$name" default ""
    compile_example lower-to-cuda-core "$src" "$name" sums "plane-sums=true"
    compile_example lower-to-cuda-core "$src" "$name" t2 "fused-steps=2"
    compile_example lower-to-cuda-core "$src" "$name" ty2-o8 \
      "threads-y=2 outputs-per-thread=8"
    compile_example lower-to-cuda-core "$src" "$name" sums-nopf \
      "plane-sums=true prefetch-planes=false"
    compile_example lower-to-cuda-core "$src" "$name" sums-d2 \
      "plane-sums=true prefetch-distance=2"
    compile_example lower-to-cuda-core "$src" "$name" ty2-o8-d3 \
      "threads-y=2 outputs-per-thread=8 prefetch-distance=3"
    # Vector columns: where the width is too wide for the element type the
    # compiler's error is listed as skipped.
    for w in 2 4 8; do
      compile_example lower-to-cuda-core "$src" "$name" "sums-w$w" \
        "plane-sums=true vector-width=$w"
    done
    compile_example lower-to-cuda-core "$src" "$name" sums-w4-ty2-o2-d2 \
      "plane-sums=true vector-width=4 threads-y=2 outputs-per-thread=2 prefetch-distance=2"
  done
  exit 0
fi

result=${OUT:-/tmp/check-3d-out}
mkdir -p "$result"; log=$result/check-3d.txt
build_runner "$result"
begin_log
for desc in "$out"/*/*.launch; do
  fused=$(steps_per_launch "$desc")
  r=1
  case $desc in *star-3d13p*|*irr3*) r=2 ;; esac
  w=$((2 * r + 1))
  for grid in 257,251,263 $w,$w,$w $((w + 2)),$((w + 4)),$((w + 6)) \
      $w,$((w + 1)),67 $((w + 1)),67,$w 67,$w,$((w + 1)) 9,$((w + 1)),70 \
      70,9,$((w + 1)) 130,66,264 $((w + 2)),$((w + 4)),16 67,9,136; do
    "$run" "$desc" --grid "$grid" --steps $((2 * fused)) 2>&1 \
      | grep -E '^RESULT|FAIL|^error|stencil-run: error' \
      | sed "s|^|CHECK ${desc#$out/} $grid: |" >> "$log"
  done
done
grep -E '^CHECK.*(check=FAIL|error)' "$log"
elapsed "checks"
# The prefetch changes when a plane is loaded, not what is computed: the
# plane sums with and without it, and with distance 2, agree bit for bit
# (odd size, 2 steps).
for desc in "$out"/sums/*.launch; do
  name=$(basename "$desc" .launch)
  [ -d "$out/sums-nopf" ] || break
  for v in sums sums-nopf sums-d2; do
    "$run" "$out/$v/$name.launch" --grid 257,251,263 --steps 2 \
      --save-output "$result/$v-$name.npy" > /dev/null 2>&1
  done
  for v in sums-nopf sums-d2; do
    word=NO; cmp -s "$result/sums-$name.npy" "$result/$v-$name.npy" && word=yes
    echo "BITWISE sums/$name = $v/$name: $word" | tee -a "$log"
  done
done
rm -f "$result"/*.npy
# (Vector columns at 37 x 66 x 392: rows a multiple of 8, interior blocks
# beside edge ones.)
for case in sums/star-3d13p-periodic:37,29,41 default/irr3-f32:37,29,41 \
    t2/box-3d27p:37,29,41 ty2-o8/heat-3d:37,29,41 sums-w4/box-3d27p:37,66,392 \
    sums-w8/heat-3d:37,66,392 sums-w4/star-3d13p-periodic:37,66,392 \
    sums-w2/box-3d27p-f64:37,29,41; do
  desc=$out/${case%%:*}.launch
  [ -f "$desc" ] || continue
  fused=$(steps_per_launch "$desc")
  echo "memcheck ${case}: $(compute-sanitizer --tool memcheck "$run" "$desc" \
    --grid "${case#*:}" --steps "$fused" 2>&1 | grep 'ERROR SUMMARY')" | tee -a "$log"
done
elapsed "memcheck"
echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -c -E '^CHECK.*(check=FAIL|error)' "$log") FAIL or error, of $(grep -c '^CHECK' "$log") checks" | tee -a "$log"
