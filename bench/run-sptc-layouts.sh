#!/usr/bin/env bash
# On the GPU machine: the comparison of issue #14 from the folders of
# bench/compile-sptc-layouts.sh, in two modes that each fit one call of the
# device tool:
#   bench/run-sptc-layouts.sh ART_DIR check  every kernel at a full and an
#                                            odd size, 3 steps, against the
#                                            runner's f64 reference
#   bench/run-sptc-layouts.sh ART_DIR table  roofline, then every stencil
#                                            through every variant at
#                                            10240^2 (2-D), 512^3 (3-D),
#                                            10240000 (1-D), T = TABLE_STEPS
#                                            (200), timed without a check
#                                            (run `check` in the same session)
# Logs go to $OUT (or /tmp/sptc-layouts-out); both modes end with their
# RESULT lines. TABLE_NAMES limits the table to some stencils.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-sptc-layouts.sh ART_DIR check|table}
mode=${2:?usage: run-sptc-layouts.sh ART_DIR check|table}
out=${OUT:-/tmp/sptc-layouts-out}
mkdir -p "$out"
log=$out/$mode.txt
: > "$log"
variants="sptc-swap sptc-match sptc-auto tc cuda-core"

source "$root/bench/common.sh"
build_runner "$out"
echo "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)" | tee -a "$log"
start=$(date +%s)
elapsed() { echo "== $1: $(( $(date +%s) - start )) s" | tee -a "$log"; }

if [ "$mode" = check ]; then
  for variant in ${CHECK_VARIANTS:-$variants}; do
    for desc in "$art/$variant"/*.launch; do
      rank=$(sed -n 's/^rank = //p' "$desc")
      for size in full odd; do
        "$run" "$desc" --grid "$(grid_for "$rank" "$size")" --steps 3 2>&1 \
          | grep -E '^RESULT|FAIL|^error' \
          | sed "s|^|$variant $(basename "$desc" .launch) $size: |" | tee -a "$log"
      done
    done
    elapsed "$variant"
  done
  echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -c 'FAIL\|error' "$log") FAIL" | tee -a "$log"
  exit 0
fi

steps=${TABLE_STEPS:-200}
"$run" --roofline 2>&1 | tee -a "$log"
elapsed roofline
for desc in "$art"/sptc-auto/*.launch; do
  name=$(basename "$desc" .launch)
  if [ -n "${TABLE_NAMES:-}" ] && ! [[ " $TABLE_NAMES " == *" $name "* ]]; then
    continue
  fi
  rank=$(sed -n 's/^rank = //p' "$desc")
  case $rank in 1) grid=10240000 ;; 2) grid=10240,10240 ;; 3) grid=512,512,512 ;; esac
  for variant in $variants; do
    [ -f "$art/$variant/$name.launch" ] || continue
    "$run" "$art/$variant/$name.launch" --grid "$grid" --steps "$steps" --no-check 2>&1 \
      | grep -E '^RESULT|FAIL|^error' | sed "s|^|$variant $name: |" | tee -a "$log"
  done
done
elapsed "table done"
