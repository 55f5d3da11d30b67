#!/usr/bin/env bash
# On the GPU machine: checks every launch description under the given
# folders against stencil-run's f64 reference at the full and odd sizes of
# bench/common.sh (check_steps steps), JOBS at a time (default 12), each
# run under a TIMEOUT (default 120 s, so a hung kernel shows as one
# TIMEOUT line instead of swallowing the call). Lines reach
# $OUT/check-descs.txt as each check ends, with the seconds it took:
#   bench/check-descs.sh FOLDER...
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
out=${OUT:-/tmp/check-descs-out}
mkdir -p "$out"
log=$out/check-descs.txt
build_runner "$out"
begin_log
export run
check_desc() {
  local desc=$1 size=$2 rank steps grid t0 line
  rank=$(sed -n 's/^rank = //p' "$desc")
  steps=$(check_steps "$desc")
  grid=$(grid_for "$rank" "$size")
  t0=$(date +%s)
  line=$(timeout "${TIMEOUT:-120}" "$run" "$desc" --grid "$grid" --steps "$steps" 2>&1 \
    | grep -E '^RESULT|FAIL|^error' | head -3 | tr '\n' ' ')
  [ -n "$line" ] || line="TIMEOUT or no result"
  echo "$(basename "$(dirname "$desc")") $(basename "$desc" .launch) $size ($(( $(date +%s) - t0 )) s): $line"
}
export -f check_desc check_steps steps_per_launch grid_for
for folder in "$@"; do
  for desc in "$folder"/*.launch; do
    [ -f "$desc" ] && printf '%s full\n%s odd\n' "$desc" "$desc"
  done
done | xargs -P "${JOBS:-12}" -L 1 bash -c 'check_desc "$0" "$1"' >> "$log"
elapsed "checks"
echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -v '^==' "$log" | grep -c -E 'FAIL|error|TIMEOUT') FAIL, error or timeout" | tee -a "$log"
