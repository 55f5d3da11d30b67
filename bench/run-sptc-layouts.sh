#!/usr/bin/env bash
# On the GPU machine: the comparison of issue #14 from the folders of
# bench/compile-sptc-layouts.sh, in two modes that each fit one call of the
# device tool:
#   bench/run-sptc-layouts.sh ART_DIR check  every kernel at a full and an
#                                            odd size, 3 steps, against the
#                                            runner's f64 reference
#                                            (bench/run-pipelines.sh's check
#                                            of the variants' folders)
#   bench/run-sptc-layouts.sh ART_DIR table  roofline, then every stencil
#                                            through every variant at
#                                            10240^2 (2-D), 512^3 (3-D),
#                                            10240000 (1-D), T = TABLE_STEPS
#                                            (200), timed without a check
#                                            (run `check` in the same session)
# Logs go to $OUT (or /tmp/sptc-layouts-out); both modes end with their
# RESULT lines. CHECK_VARIANTS limits the check to some folders,
# TABLE_NAMES the table to some stencils.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-sptc-layouts.sh ART_DIR check|table}
mode=${2:?usage: run-sptc-layouts.sh ART_DIR check|table}
export OUT=${OUT:-/tmp/sptc-layouts-out}
# VARIANTS: the folders to run (default the five of compile-sptc-layouts.sh;
# the table takes the stencils of the first).
variants=${VARIANTS:-sptc-swap sptc-match sptc-auto tc cuda-core}
if [ "$mode" = check ]; then
  CHECK_FOLDERS=${CHECK_VARIANTS:-$variants} exec "$root/bench/run-pipelines.sh" "$art" check
fi

out=$OUT
mkdir -p "$out"
log=$out/$mode.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log

steps=${TABLE_STEPS:-200}
"$run" --roofline 2>&1 | tee -a "$log"
elapsed roofline
for desc in "$art/${variants%% *}"/*.launch; do
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
