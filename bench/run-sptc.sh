#!/usr/bin/env bash
# On the GPU machine, in one call: build stencil-run, measure the roofline,
# check every compiled example at full size and at an odd size over several
# steps, then time the benchmark stencils and cuDNN in the same run.
#   bench/run-sptc.sh ARTIFACTS_DIR [BENCH_STEPS (1000)]
# ARTIFACTS_DIR comes from bench/compile-examples.sh. Logs go to $OUT (or
# /tmp/sptc-out); the last lines are a summary table.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-sptc.sh ARTIFACTS_DIR [BENCH_STEPS]}
bench_steps=${2:-1000}
out=${OUT:-/tmp/sptc-out}
mkdir -p "$out"
log=$out/runs.txt

source "$root/bench/common.sh"
build_runner "$out"
begin_log
"$run" --roofline 2>&1 | tee -a "$log"

echo "== correctness" | tee -a "$log"
for desc in "$art"/*.launch; do
  rank=$(sed -n 's/^rank = //p' "$desc")
  for size in full odd; do
    steps=4; [ "$size" = odd ] && steps=3
    "$run" "$desc" --grid "$(grid_for "$rank" "$size")" --steps "$steps" 2>&1 \
      | grep -E '^RESULT|FAIL|error' | sed "s|^|$(basename "$desc" .launch) $size: |" | tee -a "$log"
  done
done

echo "== benchmarks: 10240^2, $bench_steps steps" | tee -a "$log"
for name in box-2d9p box-2d49p box-2d225p; do
  "$run" "$art/$name.launch" --grid 10240,10240 --steps "$bench_steps" --check-steps 2 2>&1 \
    | grep -E '^RESULT|FAIL|error' | sed "s|^|$name sptc: |" | tee -a "$log"
  python3 "$root/bench/cudnn_baseline.py" "$art/$name.launch" --grid 10240,10240 \
    --steps "$bench_steps" 2>&1 | grep -E '^RESULT|Error|error' | sed "s|^|$name cudnn: |" | tee -a "$log"
done

echo "== summary"
grep -E 'RESULT' "$log" | sed -E 's/.*(^[^ ]+ [a-z]+:).*gstencil_s=([0-9.]+).*check=([A-Z]+).*/\1 \2 \3/' | head -60
