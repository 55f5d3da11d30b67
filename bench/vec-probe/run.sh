#!/usr/bin/env bash
# On the GPU machine: the vectorized-columns probe (probe.cu) beside the
# compiler's best f16 3-D kernels, in one call:
#   bench/vec-probe/run.sh ART_DIR   (ART_DIR/<tiling>/<stencil>.launch)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
art=${1:?usage: run.sh ART_DIR}
out=${OUT:-/tmp/vec-out}
mkdir -p "$out"
log=$out/vec.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/vec-probe "$root/bench/vec-probe/probe.cu" \
  -Xptxas -v > "$out/probe-build.txt" 2>&1 || { cat "$out/probe-build.txt"; exit 2; }
"$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
for round in 1 2; do
  for desc in "$art"/*/*.launch; do
    echo "OURS $(basename "$(dirname "$desc")")/$(basename "$desc" .launch) round $round:" \
      "$("$run" "$desc" --grid 768,768,768 --steps 200 --no-check 2>&1 | grep -E '^throughput|error')" \
      | tee -a "$log"
  done
  /tmp/vec-probe 768 200 $([ $round = 2 ] && echo time-only) 2>&1 | sed "s/^/PROBE round $round: /" | tee -a "$log"
done
elapsed done
