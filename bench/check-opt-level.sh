#!/usr/bin/env bash
# LLVM's optimization level before ptxas (`opt-level`, the NVVM emission of
# every GPU pipeline): the same kernels emitted at opt-level=3 and at
# opt-level=0, checked against the f64 reference and timed in one run.
#   bench/check-opt-level.sh compile ART_DIR [LEVELS ("3 0")]   (here)
#   bench/check-opt-level.sh run ART_DIR [FOLDERS]               (GPU machine)
# compile writes ART_DIR/o<L>/<case>.{ptx,launch} for each level L: every
# example through --lower-to-sptc, --lower-to-tc and --lower-to-cuda-core
# (f16), their f64 variants through --lower-to-tc, --lower-to-cuda-core and
# --lower-to-fft, the warpgroup SpTC kernel (sm_90a) of the 2-D and 3-D
# examples, and the large gathered SpTC boxes (2-D radius 9, 11, 13, 15;
# 3-D radius 3 and 4) where LLVM's scheduling decides the spills. It also
# writes ART_DIR/compile.txt: the CPU seconds of each compile.
# run checks every case of every level folder (FOLDERS, default all) at the
# odd size against the f64 reference, then times them at the seeds' sizes,
# the levels of one case back to back (RESULT lines: check=PASS, GStencil/s).
# Log: $OUT/check-opt-level.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: check-opt-level.sh compile|run ART_DIR [LEVELS|FOLDERS]}
out=${2:?usage: check-opt-level.sh compile|run ART_DIR [LEVELS|FOLDERS]}
source "$root/bench/common.sh"

if [ "$mode" = compile ]; then
  begin_compile sm_90
  mkdir -p "$out"
  : > "$out/compile.txt"
  one() { # level pipeline source name [options] [chip]
    local seconds TIMEFORMAT=%U
    seconds=$( { time chip=${6:-sm_90} compile_example "$2" "$3" "$4" "o$1" \
        "opt-level=$1${5:+ $5}" >&2; } 2>&1 >/dev/null | tail -1)
    echo "o$1 $4: $seconds s" >> "$out/compile.txt"
  }
  for level in ${3:-3 0}; do
    for example in "$root"/examples/*.mlir; do
      name=$(basename "$example" .mlir)
      for pipeline in lower-to-sptc lower-to-tc lower-to-cuda-core; do
        one "$level" "$pipeline" "$example" "$name-${pipeline#lower-to-}"
      done
      f64=$(variant_source "$example" "$name-f64" f64)
      for pipeline in lower-to-tc lower-to-cuda-core lower-to-fft; do
        one "$level" "$pipeline" "$f64" "$name-f64-${pipeline#lower-to-}"
      done
      case $name in
        heat-2d|box-2d9p|box-2d49p|box-2d225p|heat-3d|box-3d27p)
          one "$level" lower-to-sptc "$example" "$name-sptc-wg" mma=warpgroup sm_90a ;;
      esac
    done
    for big in "2 9" "2 11" "2 13" "2 15" "3 3" "3 4"; do
      set -- $big
      src=$tmp/box$1d-r$2.src.mlir
      python3 "$root/utils/gen-pattern.py" box "$1" "$2" > "$src"
      one "$level" lower-to-sptc "$src" "box$1d-r$2-sptc"
    done
  done
  exit 0
fi

result=${OUT:-/tmp/check-opt-level-out}
mkdir -p "$result"; log=$result/check-opt-level.txt
build_runner "$result"
begin_log
art=$(cd "$out" && pwd)
folders=(${3:-$(cd "$art" && ls -d o* | tr '\n' ' ')})
# The checks: every description at the odd size (check_steps), 14 at a
# time (the f64 reference is single-threaded CPU work).
check() {
  local desc=$1 rank
  rank=$(sed -n 's/^rank = //p' "$desc")
  timeout 300 "$run" "$desc" --grid "$(grid_for "$rank" odd)" \
      --steps "$(check_steps "$desc")" 2>&1 | grep -E '^RESULT|FAIL|^error' \
    | sed "s|^|check $(basename "$(dirname "$desc")") $(basename "$desc" .launch): |"
}
export -f check grid_for check_steps steps_per_launch; export run
for folder in "${folders[@]}"; do ls "$art/$folder"/*.launch; done \
  | xargs -P 14 -I{} bash -c 'check {}' | tee -a "$log"
elapsed "checks"
# The timings at the seeds' sizes, the levels of one case back to back.
for desc in "$art/${folders[0]}"/*.launch; do
  name=$(basename "$desc" .launch)
  for folder in "${folders[@]}"; do
    d=$art/$folder/$name.launch
    [ -f "$d" ] || continue
    rank=$(sed -n 's/^rank = //p' "$d")
    steps=200; [ "$rank" = 3 ] && steps=40; [ "$rank" = 1 ] && steps=400
    fused=$(steps_per_launch "$d")
    steps=$(( (steps + fused - 1) / fused * fused ))
    timeout 60 "$run" "$d" --grid "$(grid_for "$rank" seed)" --steps "$steps" \
        --no-check 2>&1 | grep -E '^RESULT|FAIL|^error' \
      | sed "s|^|time $folder $name: |" | tee -a "$log"
  done
done
elapsed "timings"
echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -c FAIL "$log") FAIL" | tee -a "$log"
