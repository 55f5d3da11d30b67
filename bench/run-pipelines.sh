#!/usr/bin/env bash
# On the GPU machine: the same-run comparison of every GPU pipeline (issue
# #4), from the folders of bench/compile-pipelines.sh. Two modes, so that
# each fits one call of the device tool:
#   bench/run-pipelines.sh ART_DIR check   every kernel at a full and an odd
#                                          size, 3 steps (two launches of a
#                                          kernel fusing steps), against the
#                                          runner's f64 reference
#   bench/run-pipelines.sh ART_DIR table   roofline, then the table stencils
#                                          at the seeds' sizes for every
#                                          pipeline and type, and cuDNN
# Logs go to $OUT (or /tmp/pipelines-out); `table` ends with the RESULT lines.
# Status: both modes run on an H100 (session 5, 2026-11-22: check 430 s,
# table 374 s).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-pipelines.sh ART_DIR check|table}
mode=${2:?usage: run-pipelines.sh ART_DIR check|table}
out=${OUT:-/tmp/pipelines-out}
mkdir -p "$out"
log=$out/$mode.txt

source "$root/bench/common.sh"
build_runner "$out"
begin_log

if [ "$mode" = check ]; then
  # CHECK_FOLDERS limits the check to some pipelines' folders.
  check_folders "$art" ${CHECK_FOLDERS:-$(ls "$art")}
  elapsed "check done"
  echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -c 'FAIL' "$log") FAIL" | tee -a "$log"
  exit 0
fi

# Time steps per measurement: the seeds' grids (10240^2, 768^3) with
# TABLE_STEPS_2D / _3D steps (default 200 / 40, fewer than the seeds'
# 1000 / 100 so that the slowest baselines fit one device call; a kernel's
# time per step does not depend on T beyond the first launches).
table_steps_2d=${TABLE_STEPS_2D:-200}
table_steps_3d=${TABLE_STEPS_3D:-40}
"$run" --roofline 2>&1 | tee -a "$log"
elapsed roofline
for name in heat-2d box-2d9p box-2d49p box-2d225p heat-3d box-3d27p; do
  for variant in "sptc/$name" "tc/$name" "tc-lowrank/$name" "tc/$name-f64" \
                 "cuda-core/$name" "cuda-core/$name-f64" \
                 "cuda-core-tb/$name" "cuda-core-tb/$name-f64"; do
    desc=$art/$variant.launch
    [ -f "$desc" ] || continue
    rank=$(sed -n 's/^rank = //p' "$desc")
    steps=$table_steps_2d; [ "$rank" = 3 ] && steps=$table_steps_3d
    fused=$(steps_per_launch "$desc")
    steps=$(( (steps + fused - 1) / fused * fused ))
    # TABLE_CHECK=0: time only (the same files passed `check` in this session).
    check_args="--check-steps 1"; [ "${TABLE_CHECK:-1}" = 0 ] && check_args=--no-check
    "$run" "$desc" --grid "$(grid_for "$rank" seed)" --steps "$steps" $check_args 2>&1 \
      | grep -E '^RESULT|FAIL|^error' | sed "s|^|${variant%%/*} $name: |" | tee -a "$log"
  done
  for dtype in f16 f64; do
    desc=$art/sptc/$name.launch
    rank=$(sed -n 's/^rank = //p' "$desc")
    steps=$table_steps_2d; [ "$rank" = 3 ] && steps=$table_steps_3d
    timeout 120 python3 "$root/bench/cudnn_baseline.py" "$desc" --grid "$(grid_for "$rank" seed)" \
      --steps "$steps" --dtype "$dtype" 2>&1 | grep -E '^RESULT|Error|error' \
      | sed "s|^|cudnn-$dtype $name: |" | tee -a "$log"
  done
  elapsed "$name"
done
echo "== summary"
grep RESULT "$log"
