#!/usr/bin/env bash
# Issue 17's goals in one device call: LoRAStencil's artifact and our best
# kernel for each of its f64 shapes, the f16 2-D kernels with fused steps
# against the single-step bound, and the f16 3-D kernels against it, with
# the roofline that sets the bound measured in the same call.
#   bench/scoreboard.sh compile ART_DIR   here: ART_DIR/<folder>/<name>.{ptx,launch}
#   bench/scoreboard.sh run ART_DIR       on the GPU machine (carry ART_DIR and
#                                         baselines/LoRAStencil, see
#                                         bench/run-lorastencil.sh)
# The run checks each kernel at the odd size against the runner's f64
# reference, then times it (two rounds; f64 2-D at 10240^2 over 1000 steps,
# box3d1r at 512^3 over 1000, f16 2-D at 10240^2 over 1000, f16 3-D at
# 768^3 over 200) and prints SCORE lines; LoRAStencil is timed before and
# after ours.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: scoreboard.sh compile|run ART_DIR}
out=${2:?usage: scoreboard.sh compile|run ART_DIR}
source "$root/bench/common.sh"

# folder:example:type:pipeline:options, one kernel per line: the fastest
# measured kernel of each shape (bench/NOTES.md).
kernels="f64-rows-t8:box-2d9p:f64:lower-to-cuda-core:fused-steps=8 stream=on threads-y=4 planes=256
f64-rows-t8:heat-2d:f64:lower-to-cuda-core:fused-steps=8 stream=on threads-y=4 planes=256
f64-rows-t2:box-2d49p:f64:lower-to-cuda-core:fused-steps=2 stream=on planes=256
f64-rowgroups-t2-ph3:box-2d49p:f64:lower-to-cuda-core:fused-steps=2 stream=on planes=296 row-phases=3
f64-rows-t3:star-2d13p:f64:lower-to-cuda-core:fused-steps=3 stream=on threads-y=4 planes=256
f64-stream-ty2-o8:box-3d27p:f64:lower-to-cuda-core:stream=on threads-y=2 outputs-per-thread=8 prefetch-planes=false
tc-t4:heat-2d:f16:lower-to-tc:fused-steps=4
tc-lowrank-t4:heat-2d:f16:lower-to-tc:low-rank=true fused-steps=4
tc-t4:box-2d9p:f16:lower-to-tc:fused-steps=4
sptc-t4:heat-2d:f16:lower-to-sptc:fused-steps=4
sptc-t4:box-2d9p:f16:lower-to-sptc:fused-steps=4
ring-ty2-o8-p64:heat-3d:f16:lower-to-cuda-core:threads-y=2 outputs-per-thread=8 planes=64
ring-ty2-o8-p64:box-3d27p:f16:lower-to-cuda-core:threads-y=2 outputs-per-thread=8 planes=64
sums-ty4-o4-p64-d3:heat-3d:f16:lower-to-cuda-core:plane-sums=true threads-y=4 outputs-per-thread=4 planes=64 prefetch-distance=3
sums-ty4-o4-p64-d2:box-3d27p:f16:lower-to-cuda-core:plane-sums=true threads-y=4 outputs-per-thread=4 planes=64 prefetch-distance=2
vec-w8-ty2-o2-p64:heat-3d:f16:lower-to-cuda-core:plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64
vec-w8-ty2-o2-p64-d2:heat-3d:f16:lower-to-cuda-core:plane-sums=true vector-width=8 threads-y=2 outputs-per-thread=2 planes=64 prefetch-distance=2
vec-w4-ty4-o2-p64-d3:box-3d27p:f16:lower-to-cuda-core:plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64 prefetch-distance=3
vec-w4-ty4-o2-p64-d4:box-3d27p:f16:lower-to-cuda-core:plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64 prefetch-distance=4
vec-w4-ty4-o2-p64-d3-m5:box-3d27p:f16:lower-to-cuda-core:plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64 prefetch-distance=3 min-blocks-per-sm=5
sptc:heat-3d:f16:lower-to-sptc:
sptc:box-3d27p:f16:lower-to-sptc:"

if [ "$mode" = compile ]; then
  begin_compile "${CHIP:-sm_90}"
  while IFS=: read -r folder name type pipeline options; do
    src=$root/examples/$name.mlir
    [ "$type" = f16 ] || src=$(variant_source "$src" "$name-$type" "$type")
    compile_example "$pipeline" "$src" "$name" "$folder" "$options"
  done <<< "$kernels"
  exit 0
fi

log=${OUT:-/tmp/scoreboard-out}/scoreboard.txt
mkdir -p "$(dirname "$log")"
build_runner "$(dirname "$log")"
begin_log
"$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
lora() {
  [ -d "$root/baselines/LoRAStencil" ] || return 0
  OUT=$(dirname "$log")/lora bash "$root/bench/run-lorastencil.sh" 2>&1 \
    | grep -E '^LORA' | sed "s/^/$1 /" | tee -a "$log"
  elapsed "LoRAStencil ($1)"
}
lora before
while IFS=: read -r folder name type pipeline options; do
  desc=$out/$folder/$name.launch
  [ -f "$desc" ] || { echo "SCORE $folder/$name: not compiled" | tee -a "$log"; continue; }
  rank=$(sed -n 's/^rank = //p' "$desc")
  fused=$(steps_per_launch "$desc")
  "$run" "$desc" --grid "$(grid_for "$rank" odd)" --steps "$(check_steps "$desc")" 2>&1 \
    | grep -E '^RESULT|FAIL|^error' | sed "s|^|CHECK $folder/$name: |" | tee -a "$log"
  case $rank:$type in
    2:*) grid=10240,10240 T=1000 ;;
    3:f64) grid=512,512,512 T=1000 ;;
    3:*) grid=768,768,768 T=200 ;;
  esac
  T=$(( (T / fused) * fused ))
  for round in 1 2; do
    "$run" "$desc" --grid "$grid" --steps "$T" --no-check 2>&1 | grep -E '^RESULT|error' \
      | sed "s|^|SCORE $folder/$name round $round: |" | tee -a "$log"
  done
done <<< "$kernels"
elapsed ours
lora after
