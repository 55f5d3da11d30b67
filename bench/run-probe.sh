#!/usr/bin/env bash
# On the GPU machine: a hand-written probe (bench/<PROBE>-probe/probe.cu, not
# part of the compiler) beside the compiler's kernels of ART_DIR, two rounds
# in one call (768^3, 200 steps), with the roofline; ARGS go to the probe's
# second round (vec, tc3d: `time-only` skips their checks there):
#   bench/run-probe.sh tma|vec|tc3d ART_DIR [ARGS...]   (ART_DIR/<tiling>/<stencil>.launch)
# Log: $OUT/<PROBE>.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
probe=${1:?usage: run-probe.sh tma|vec|tc3d ART_DIR [ARGS...]}
art=${2:?usage: run-probe.sh tma|vec|tc3d ART_DIR [ARGS...]}
shift 2
out=${OUT:-/tmp/$probe-out}
mkdir -p "$out"
log=$out/$probe.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
nvcc -O3 -std=c++17 -arch=sm_90 -o "/tmp/$probe-probe" "$root/bench/$probe-probe/probe.cu" \
  -Xptxas -v > "$out/probe-build.txt" 2>&1 || { cat "$out/probe-build.txt"; exit 2; }
"$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
for round in 1 2; do
  for desc in "$art"/*/*.launch; do
    echo "OURS $(basename "$(dirname "$desc")")/$(basename "$desc" .launch) round $round:" \
      "$("$run" "$desc" --grid 768,768,768 --steps 200 --no-check 2>&1 | grep -E '^throughput|error')" \
      | tee -a "$log"
  done
  args=()
  [ "$round" = 2 ] && args=("$@")
  "/tmp/$probe-probe" 768 200 "${args[@]}" 2>&1 | sed "s/^/PROBE round $round: /" | tee -a "$log"
done
elapsed done
