#!/usr/bin/env bash
# On the GPU machine: fused steps by kernel composition (issue 17), from the
# folders of bench/compile-fused.sh. Two modes, each one device call:
#   bench/run-fused.sh ART_DIR check   every fused kernel (folders *-t2..4)
#                                      at a full and an odd size, two
#                                      launches, against the runner's f64
#                                      reference (the composed tolerance,
#                                      docs/LaunchDescription.md); then
#                                      compute-sanitizer memcheck on a few
#   bench/run-fused.sh ART_DIR table   roofline; LoRAStencil's artifact
#                                      (bench/run-lorastencil.sh, carry
#                                      baselines/LoRAStencil); then ours at
#                                      its sizes (f64, 10240^2 and 512^3,
#                                      T = 1000 or the nearest multiple of
#                                      the fused steps) and the f16 table
#   bench/run-fused.sh ART_DIR stream  the streamed 3-D CUDA-core kernels:
#                                      checks (full and odd sizes),
#                                      memcheck, then the 3-D table (f16 at
#                                      768^3 against the staged kernels and
#                                      the Tensor Core ones; f64 Box-3D27P at
#                                      512^3 against LoRAStencil's box3d1r)
#   bench/run-fused.sh ART_DIR rows    the row-streamed 2-D CUDA-core kernels
#                                      of bench/compile-rowstream.sh: checks
#                                      (full and odd sizes), memcheck, then
#                                      the f64 table at 10240^2 against the
#                                      staged and composed kernels (and
#                                      LoRAStencil's artifact when carried;
#                                      TABLE_NAMES, TABLE_FOLDERS select)
#   bench/run-fused.sh ART_DIR ncu     ncu's speed of light, scheduler,
#                                      occupancy and warp-state sections
#                                      (the top stall's line) of one launch of
#                                      each FOLDER/NAME of NCU_KERNELS (the
#                                      f64 kernels behind the misses of
#                                      issue 17 by default) at the table's
#                                      sizes
# Logs go to $OUT (or /tmp/fused-out); `table` ends with RESULT lines.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-fused.sh ART_DIR check|table|stream|rows|ncu}
mode=${2:?usage: run-fused.sh ART_DIR check|table|stream|rows|ncu}
out=${OUT:-/tmp/fused-out}
mkdir -p "$out"
log=$out/$mode.txt

source "$root/bench/common.sh"
build_runner "$out"
begin_log

# compute-sanitizer memcheck of each DESC that exists, on a small odd grid
# of its rank, two launches; then the PASS/FAIL count of the log:
#   memcheck_and_count DESC...
memcheck_and_count() {
  local desc rank grid steps
  for desc in "$@"; do
    [ -f "$desc" ] || continue
    rank=$(sed -n 's/^rank = //p' "$desc")
    case $rank in 1) grid=100003 ;; 2) grid=${MEMCHECK_GRID_2D:-523,389} ;;
      3) grid=61,37,53 ;; esac
    steps=$((2 * $(steps_per_launch "$desc")))
    compute-sanitizer --tool memcheck --error-exitcode 9 "$run" "$desc" \
      --grid "$grid" --steps "$steps" --warmup 0 > "$out/memcheck.txt" 2>&1
    echo "memcheck $(basename "$(dirname "$desc")")/$(basename "$desc" .launch): rc=$? $(grep -m1 'ERROR SUMMARY' "$out/memcheck.txt")" | tee -a "$log"
  done
  elapsed "$mode checks done"
  echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -v '^==' "$log" | grep -c 'FAIL') FAIL" | tee -a "$log"
}

if [ "$mode" = check ]; then
  check_folders "$art" $(cd "$art" && ls -d ${CHECK_FOLDERS:-*-t[234]})
  # The band kernel's decode and its stores at the edge are what is new.
  memcheck_and_count "$art"/tc-t2/box-2d9p.launch \
    "$art"/tc-f64-t3/heat-2d-f64.launch "$art"/sptc-t4/heat-2d.launch \
    "$art"/tc-f64-t2/box-3d27p-f64.launch "$art"/sptc-t2/heat-1d.launch \
    "$art"/tc-t2/star-2d13p.launch \
    "$art"/cuda-core-boundary-t3/heat-3d-dirichlet.launch \
    "$art"/cuda-core-boundary-t2/box-3d27p-periodic.launch \
    "$art"/cuda-core-f64-stream-t3/box-3d27p-f64.launch \
    "$art"/cuda-core-t4/general-2d.launch \
    "$art"/cuda-core-boundary-t4/box-2d9p-dirichlet.launch \
    "$art"/tc-lowrank-t4/heat-2d.launch \
    "$art"/tc-lowrank-bf16-t3/sep-box-2d9p-bf16.launch
  exit 0
fi

time_one() { # folder name grid steps
  local desc=$art/$1/$2.launch fused steps
  [ -f "$desc" ] || return 0
  fused=$(steps_per_launch "$desc")
  steps=$(( ($4 / fused) * fused ))
  "$run" "$desc" --grid "$3" --steps "$steps" --no-check 2>&1 \
    | grep -E '^throughput|^RESULT|error' \
    | sed "s|^|TABLE $1/$2 grid=$3 steps=$steps: |" | tee -a "$log"
}

if [ "$mode" = ncu ]; then
  for kernel in ${NCU_KERNELS:-cuda-core-f64-t1/box-2d49p-f64 \
      cuda-core-f64-t2/box-2d49p-f64 cuda-core-f64-t2/star-2d13p-f64 \
      cuda-core-f64-t3/star-2d13p-f64 cuda-core-f64-t4/heat-2d-f64 \
      tc-f64-t1/box-2d49p-f64}; do
    desc=$art/$kernel.launch
    [ -f "$desc" ] || continue
    case $(sed -n 's/^rank = //p' "$desc") in
      2) grid=10240,10240 ;; 3) grid=512,512,512 ;; *) grid=10240000 ;;
    esac
    echo "=== $kernel" | tee -a "$log"
    ncu --section SpeedOfLight --section SchedulerStats --section Occupancy \
        --section LaunchStats --section WarpStateStats --launch-skip 1 --launch-count 1 "$run" "$desc" \
        --grid "$grid" --steps "$((2 * $(steps_per_launch "$desc")))" \
        --warmup 0 --no-check 2>&1 \
      | grep -E '^  [a-z0-9_]+ \(|Throughput|Eligible|Issued Warp|Cycles Per Issued|Block Limit|Occupancy|Registers Per|Shared Memory Per Block|Duration|stalled' \
      | tee -a "$log"
  done
  elapsed "ncu done"
  exit 0
fi

if [ "$mode" = stream ]; then
  check_folders "$art" $(cd "$art" && ls -d cuda-core*stream*)
  memcheck_and_count "$art"/cuda-core-stream-t3/heat-3d.launch \
    "$art"/cuda-core-f64-stream-t2/box-3d27p-f64.launch \
    "$art"/cuda-core-stream-p16-t1/box-3d27p.launch
  [ -n "${SKIP_TABLE:-}" ] && exit 0
  "$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
  if [ -d "$root/baselines/LoRAStencil" ] && [ -z "${SKIP_LORA:-}" ]; then
    OUT=$out/lora LORA_SHAPES=box3d1r bash "$root/bench/run-lorastencil.sh" 2>&1 \
      | grep -E '^LORA' | tee -a "$log"
    elapsed lorastencil
  fi
  for name in heat-3d box-3d27p; do
    for folder in tc-t1 sptc-t1 cuda-core-staged-t1 cuda-core-staged-t2 $(cd "$art" && ls -d cuda-core-stream*); do
      time_one "$folder" "$name" 768,768,768 200
    done
  done
  for folder in cuda-core-f64-t1 cuda-core-f64-t2 $(cd "$art" && ls -d cuda-core-f64-stream*); do
    time_one "$folder" box-3d27p-f64 512,512,512 1000
  done
  elapsed "stream table done"
  exit 0
fi

if [ "$mode" = rows ]; then
  if [ -z "${SKIP_CHECKS:-}" ]; then
    check_folders "$art" $(cd "$art" && ls -d ${CHECK_FOLDERS:-cuda-core-rows-t* \
      cuda-core-f64-rows-t* cuda-core-f32-rows-t* cuda-core-rows-boundary-t*})
    memcheck_and_count "$art"/cuda-core-f64-rows-t3/box-2d49p-f64.launch \
      "$art"/cuda-core-rows-t4/heat-2d.launch \
      "$art"/cuda-core-rows-boundary-t2/box-2d9p-f16-periodic.launch \
      "$art"/cuda-core-rows-boundary-t3/irregular-2d-f64-dirichlet.launch \
      "$art"/cuda-core-f32-rows-t1/box-2d225p-f32.launch
    # A grid with interior blocks (their sweep skips the bounds checks)
    # beside edge blocks of every kind.
    MEMCHECK_GRID_2D=1031,1543 memcheck_and_count \
      "$art"/cuda-core-f64-rows-t3/box-2d9p-f64.launch \
      "$art"/cuda-core-rows-boundary-t2/heat-2d-f64-periodic.launch \
      "$art"/cuda-core-f64-rows-tune-ty4p256-t8/heat-2d-f64.launch
  fi
  [ -n "${SKIP_TABLE:-}" ] && exit 0
  "$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
  if [ -d "$root/baselines/LoRAStencil" ] && [ -z "${SKIP_LORA:-}" ]; then
    OUT=$out/lora LORA_SHAPES="${LORA_SHAPES:-box2d1r star2d1r box2d3r star2d3r}" \
      bash "$root/bench/run-lorastencil.sh" 2>&1 | grep -E '^LORA' | tee -a "$log"
    elapsed lorastencil
  fi
  for name in ${TABLE_NAMES:-box-2d9p heat-2d box-2d49p star-2d13p}; do
    for folder in $(cd "$art" && ls -d ${TABLE_FOLDERS:-tc-f64-t* \
        cuda-core-f64-t* cuda-core-f64-rows-t* cuda-core-f64-rows-tune-*} \
        2>/dev/null); do
      time_one "$folder" "$name-f64" 10240,10240 "${TABLE_STEPS_2D:-1000}"
    done
  done
  elapsed "rows table done"
  exit 0
fi

# table
"$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
elapsed roofline
if [ -d "$root/baselines/LoRAStencil" ] && [ -z "${SKIP_LORA:-}" ]; then
  OUT=$out/lora bash "$root/bench/run-lorastencil.sh" 2>&1 | grep -E '^LORA' | tee -a "$log"
  elapsed lorastencil
fi
steps_2d=${TABLE_STEPS_2D:-1000}
steps_3d=${TABLE_STEPS_3D:-1000}
# f64 against LoRAStencil: box2d1r, star2d1r, box2d3r, star2d3r, box3d1r.
for name in box-2d9p heat-2d box-2d49p star-2d13p; do
  for folder in tc-f64-t1 tc-f64-t2 tc-f64-t3 tc-f64-t4 cuda-core-f64-t1 \
      cuda-core-f64-t2 cuda-core-f64-t3 cuda-core-f64-t4; do
    time_one "$folder" "$name-f64" 10240,10240 "$steps_2d"
  done
done
elapsed "f64 2-D"
# (cuda-core-f64-t<k> is the pipeline's default: streamed where it fits.)
for folder in tc-f64-t1 tc-f64-t2 cuda-core-f64-t1 cuda-core-f64-t2 \
    cuda-core-f64-t3 cuda-core-f64-stream-ty4-p64-t1; do
  time_one "$folder" box-3d27p-f64 512,512,512 "$steps_3d"
done
elapsed "f64 3-D"
# f16: the single-step bandwidth bound is the roofline's bandwidth / 4 B.
for name in heat-2d box-2d9p; do
  for folder in tc-t1 tc-t2 tc-t3 tc-t4 sptc-t1 sptc-t2 sptc-t3 sptc-t4; do
    time_one "$folder" "$name" 10240,10240 "$steps_2d"
  done
done
for name in heat-3d box-3d27p; do
  for folder in tc-t1 sptc-t1 tc-t2 sptc-t2 cuda-core-staged-t1 cuda-core-t1 \
      cuda-core-t2; do
    time_one "$folder" "$name" 768,768,768 200
  done
done
elapsed "table done"
