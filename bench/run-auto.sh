#!/usr/bin/env bash
# On the GPU machine: the --lower-to-auto benchmark (issue #15) from the
# folders of bench/compile-auto.sh (ART may be the folder or a .tar.xz of
# it), in modes that each fit one call of the device tool:
#   bench/run-auto.sh ART table   roofline (--profile-out $OUT/profile.txt),
#                                 then every candidate of every case matching
#                                 CASES (an ERE, default all) at 10240^2 (2-D),
#                                 512^3 (3-D), 10240000 (1-D), T = STEPS
#                                 (120, the cases' steps), timed without a
#                                 check; ROOFLINE=0 skips the roofline (a
#                                 second call of the same run)
#   bench/run-auto.sh ART check   --lower-to-auto's kernel of every case
#                                 matching CASES at a full and an odd size
#                                 against the runner's f64 reference
# Logs go to $OUT (or /tmp/auto-out): table.txt / check.txt, RESULT lines
# prefixed "CASE SLUG SIZE:".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-auto.sh ART table|check}
mode=${2:?usage: run-auto.sh ART table|check}
out=${OUT:-/tmp/auto-out}
mkdir -p "$out"
if [[ $art == *.tar.xz ]]; then
  mkdir -p /tmp/auto-art && tar -xJf "$art" -C /tmp/auto-art
  art=/tmp/auto-art/$(tar -tJf "$art" | head -1 | cut -d/ -f1)
fi
log=$out/$mode.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log

cases=$(ls "$art/k" | grep -E -e "${CASES:-.}")
if [ "$mode" = table ]; then
  steps=${STEPS:-120}
  if [ "${ROOFLINE:-1}" != 0 ]; then
    "$run" --roofline --profile-out "$out/profile.txt" 2>&1 | tee -a "$log"
    elapsed roofline
  fi
  for name in $cases; do
    for desc in "$art/k/$name"/*.launch; do
      slug=$(basename "$desc" .launch)
      rank=$(sed -n 's/^rank = //p' "$desc")
      "$run" "$desc" --grid "$(grid_for "$rank" seed | sed 's/^768,768,768$/512,512,512/')" \
          --steps "$steps" --no-check 2>&1 \
        | grep -E '^RESULT|FAIL|^error' | sed "s|^|$name $slug seed: |" | tee -a "$log"
    done
  done
  elapsed "table done"
else
  for name in $cases; do
    slug=$(cat "$art/k/$name/auto.txt")
    desc=$art/k/$name/$slug.launch
    rank=$(sed -n 's/^rank = //p' "$desc")
    steps=$(check_steps "$desc")
    for size in full odd; do
      "$run" "$desc" --grid "$(grid_for "$rank" "$size")" --steps "$steps" 2>&1 \
        | grep -E '^RESULT|FAIL|^error' | sed "s|^|$name $slug $size: |" | tee -a "$log"
    done
  done
  elapsed "check done"
fi
