#!/usr/bin/env bash
# On the GPU machine: a hand-written probe (bench/probes/<PROBE>/probe.cu, not
# part of the compiler) beside the compiler's kernels of ART_DIR, two rounds
# in one call (768^3 over 200 steps; the rows probe, f64 Box-2D49P: 10240^2
# over 1000), with the roofline; ARGS go to the probe's second round (vec,
# tc3d, rows: `time-only` skips their checks there):
#   bench/probes/run.sh tma|vec|tc3d|rows ART_DIR [ARGS...]   (ART_DIR/<tiling>/<stencil>.launch)
# PROBE_NVCC_FLAGS: extra nvcc flags for the probe (the vec probe's -DWPAIRS).
# Log: $OUT/<PROBE>.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
probe=${1:?usage: probes/run.sh tma|vec|tc3d|rows ART_DIR [ARGS...]}
art=${2:?usage: probes/run.sh tma|vec|tc3d|rows ART_DIR [ARGS...]}
shift 2
out=${OUT:-/tmp/$probe-out}
mkdir -p "$out"
log=$out/$probe.txt
# The grid and steps of ours and the probe's size arguments (the rows probe
# does two steps per launch).
ours=(--grid 768,768,768 --steps 200) size=(768 200)
[ "$probe" = rows ] && ours=(--grid 10240,10240 --steps 1000) size=(10240 500)
source "$root/bench/common.sh"
build_runner "$out"
begin_log
nvcc ${PROBE_NVCC_FLAGS:-} -O3 -std=c++17 -arch=sm_90 -o "/tmp/$probe-probe" "$root/bench/probes/$probe/probe.cu" \
  -Xptxas -v > "$out/probe-build.txt" 2>&1 || { cat "$out/probe-build.txt"; exit 2; }
"$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
for round in 1 2; do
  for desc in "$art"/*/*.launch; do
    echo "OURS $(basename "$(dirname "$desc")")/$(basename "$desc" .launch) round $round:" \
      "$("$run" "$desc" "${ours[@]}" --no-check 2>&1 | grep -E '^throughput|error')" \
      | tee -a "$log"
  done
  args=()
  [ "$round" = 2 ] && args=("$@")
  "/tmp/$probe-probe" "${size[@]}" "${args[@]}" 2>&1 | sed "s/^/PROBE round $round: /" | tee -a "$log"
done
elapsed done
