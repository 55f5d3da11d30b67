#!/usr/bin/env bash
# Compile time against pattern size, per pipeline: each of --lower-to-cpu,
# --lower-to-cuda-core, --lower-to-tc, --lower-to-sptc, --lower-to-fft and
# --lower-to-auto on 1-D, 2-D and 3-D stars and boxes of growing radius, an
# explicit random pattern and a non-linear stencil.apply, written by
# utils/gen-pattern.py. Runs on the compiler's machine (no GPU):
#   bench/compile-time.sh [LOG (compile-time.txt)]
# Each compile runs alone under COMPILE_TIMEOUT seconds (default 60); a cell
# is the compile's CPU time (user + sys, seconds: what it takes on an idle
# machine), `ref` when the pipeline refused the input with a located error
# in that time (its first error line is in the log), `>T` when it ran out
# of time, `FAIL` for any other failure. Wall times are in the log.
# Element types: f16 for the GPU pipelines but FFT, f64 for FFT and the CPU.
# SHAPES (default: all) selects rows by their name's prefix, e.g.
# SHAPES="star1d box2d". ptxas is left to --lower-to-auto's default (found:
# each candidate is assembled).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
log=${1:-compile-time.txt}
timeout_s=${COMPILE_TIMEOUT:-60}
source "$root/bench/common.sh"
begin_compile
gen="python3 $root/utils/gen-pattern.py"

# name | generator arguments (before --type)
rows=(
  "star1d-r1|star 1 1" "star1d-r64|star 1 64" "star1d-r1024|star 1 1024"
  "star1d-r8191|star 1 8191"
  "star2d-r1|star 2 1" "star2d-r16|star 2 16" "star2d-r63|star 2 63"
  "box2d-r1|box 2 1" "box2d-r7|box 2 7" "box2d-r15|box 2 15"
  "box2d-r30|box 2 30" "box2d-r63|box 2 63"
  "star3d-r1|star 3 1" "star3d-r4|star 3 4" "star3d-r12|star 3 12"
  "box3d-r1|box 3 1" "box3d-r3|box 3 3" "box3d-r6|box 3 6" "box3d-r12|box 3 12"
  "random2d-1024|random 2 1024" "random2d-16384|random 2 16384"
  "apply2d-1000|apply 2 1000" "apply2d-5000|apply 2 5000"
)
pipelines=(cpu cuda-core tc sptc fft auto)

selected() {
  [ -z "${SHAPES:-}" ] && return 0
  local s
  for s in $SHAPES; do [[ $1 == "$s"* ]] && return 0; done
  return 1
}

# Prints one cell for compiling SOURCE through PIPELINE.
cell() {
  local pipeline=$1 src=$2 name=$3 flag extra=()
  case $pipeline in
    cpu) flag=--lower-to-cpu ;;
    auto) flag=--lower-to-auto ;;
    *) flag=--lower-to-$pipeline ;;
  esac
  local times=$tmp/time.txt err=$tmp/err.txt rc=0
  /usr/bin/time -f "%e %U %S" -o "$times" timeout "$timeout_s" \
    "$build/bin/stencil-opt" "$src" "$flag" -o /dev/null > /dev/null 2> "$err" || rc=$?
  local wall cpu
  read -r wall user sys < <(tail -1 "$times")
  cpu=$(echo "$user $sys" | awk '{printf "%.2f", $1 + $2}')
  local status
  if [ "$rc" -eq 0 ]; then
    status=$cpu
  elif [ "$rc" -eq 124 ]; then
    status=">$timeout_s"
  elif grep -q "error:" "$err"; then
    status=ref
  else
    status=FAIL
  fi
  printf '%s %s rc=%s cpu=%s wall=%s %s\n' "$name" "$pipeline" "$rc" "$cpu" \
    "$wall" "$(grep -m1 'error:' "$err" || true)" >> "$log"
  echo "$status"
}

: > "$log"
echo "== compile time: $(nproc) cores, $(uname -m), timeout ${timeout_s}s, build $build" | tee -a "$log"
header=$(printf '%-16s %6s' shape points)
for p in "${pipelines[@]}"; do header+=$(printf ' %9s' "$p"); done
table=("$header")
echo "$header"
for row in "${rows[@]}"; do
  name=${row%%|*} args=${row#*|}
  selected "$name" || continue
  $gen $args --type f16 > "$tmp/$name-f16.mlir"
  $gen $args --type f64 > "$tmp/$name-f64.mlir"
  points=$($gen $args --count)
  line=$(printf '%-16s %6s' "$name" "$points")
  for p in "${pipelines[@]}"; do
    type=f16
    case $p in cpu|fft) type=f64 ;; esac
    line+=$(printf ' %9s' "$(cell "$p" "$tmp/$name-$type.mlir" "$name")")
  done
  table+=("$line")
  echo "$line"
done
{ echo; printf '%s\n' "${table[@]}"; } >> "$log"
