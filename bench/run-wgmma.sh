#!/usr/bin/env bash
# On the GPU machine (sm_90a): the warpgroup SpTC kernels (issue 16) next to
# today's sm_90 kernels, from two folders of bench/compile-examples.sh
# (mma=auto: the 1-D examples keep the warp-level kernel):
#   bench/compile-examples.sh art/sm90a lower-to-sptc "sm_90a mma=auto"
#   bench/compile-examples.sh art/sm90 lower-to-sptc sm_90     # here
#   bench/run-wgmma.sh art                                     # GPU machine
# 1. every sm90a example at a full and an odd size (bench/common.sh), 3
#    steps, against the runner's f64 reference;
# 2. compute-sanitizer memcheck and racecheck on SANITIZE (default: the
#    2-D and 3-D kernels) at 259x131 / 37x29x41, 2 steps;
# 3. GStencil/s of both folders' 2-D kernels at 10240^2 (STEPS_2D, 100) and
#    3-D kernels at 512^3 (STEPS_3D, 20), back to back.
# Logs: $OUT (or /tmp/wgmma-out)/wgmma.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-wgmma.sh ART_DIR}
out=${OUT:-/tmp/wgmma-out}
mkdir -p "$out"
log=$out/wgmma.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
for desc in "$art"/sm90a/*.launch; do
  rank=$(sed -n 's/^rank = //p' "$desc")
  for size in full odd; do
    "$run" "$desc" --grid "$(grid_for "$rank" "$size")" --steps 3 2>&1 \
      | grep -E '^RESULT|FAIL|^error' \
      | sed "s|^|check $(basename "$desc" .launch) $size: |" | tee -a "$log"
  done
done
elapsed check
san=${SANITIZER:-compute-sanitizer}
for name in ${SANITIZE:-box-2d225p box-2d9p heat-3d box-3d27p}; do
  desc=$art/sm90a/$name.launch
  rank=$(sed -n 's/^rank = //p' "$desc")
  grid=259,131; [ "$rank" = 3 ] && grid=37,29,41
  for tool in memcheck racecheck; do
    if "$san" --tool "$tool" --error-exitcode 9 "$run" "$desc" --grid "$grid" \
        --steps 2 --warmup 0 > "$out/san-$name-$tool.txt" 2>&1; then
      echo "sanitize $name $tool: PASS ($(grep -c 'RESULT.*PASS' "$out/san-$name-$tool.txt") check)" | tee -a "$log"
    else
      echo "sanitize $name $tool: FAIL" | tee -a "$log"; tail -20 "$out/san-$name-$tool.txt" | tee -a "$log"
    fi
  done
done
elapsed sanitize
for desc in "$art"/sm90a/*.launch; do
  name=$(basename "$desc" .launch)
  rank=$(sed -n 's/^rank = //p' "$desc")
  [ "$rank" = 1 ] && continue
  grid=10240,10240; steps=${STEPS_2D:-100}
  [ "$rank" = 3 ] && { grid=512,512,512; steps=${STEPS_3D:-20}; }
  for folder in sm90a sm90; do
    "$run" "$art/$folder/$name.launch" --grid "$grid" --steps "$steps" --no-check 2>&1 \
      | grep -E '^RESULT|^error' | sed "s|^|time $folder $name: |" | tee -a "$log"
  done
done
elapsed time
