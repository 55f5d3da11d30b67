#!/usr/bin/env bash
# On an sm_90 GPU machine, in one call: the Hopper table of issue 16.
# Compiled here (the GPU machine has no LLVM):
#   bench/compile-examples.sh ART/sm90a lower-to-sptc "sm_90a mma=warpgroup"
#   bench/compile-examples.sh ART/sm90  lower-to-sptc sm_90
#   bench/compile-examples.sh ART/tc    lower-to-tc   sm_90
# (ART/extra/*.launch, optional: more stencils, compiled the same way into
# ART/extra/{sm90a,sm90}). SPIDER's artifact (KevinWu2017/SPIDER with
# p-ranav/argparse's include/ in third_party/argparse) unpacked in
# SPIDER_DIR (default ./spider); it is built here, never copied into the
# project. Then:
#   bench/run-hopper.sh ART
# 1. the roofline (stencil-run --roofline: copy bandwidth, MMA peaks);
# 2. every sm90a example at the full, odd and 1030x1022 sizes (N_x even,
#    not a multiple of 8), 3 steps, against the runner's f64 reference;
#    compute-sanitizer memcheck and racecheck on SANITIZE;
# 3. GStencil/s at the seed sizes, all in this one run: SPIDER's sparse and
#    dense 2-D artifacts (10240^2, T = STEPS, 1000) and its 1-D one
#    (-M 1024 -N 10000, T = STEPS_1D, 10000), and ours: sm90a, sm90 and tc
#    of every example (2-D at 10240^2 x STEPS, 3-D at 512^3 x STEPS_3D,
#    1-D at 10240000 x STEPS_1D);
# 4. ncu (NCU_KERNELS, default box-2d9p box-2d225p of sm90a and sm90):
#    DRAM, L2, L1 and issue utilisation, stalls, occupancy.
# Logs: $OUT (or /tmp/hopper-out)/hopper.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: run-hopper.sh ART_DIR}
spider=${SPIDER_DIR:-$root/spider}
out=${OUT:-/tmp/hopper-out}
mkdir -p "$out"
log=$out/hopper.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
"$run" --roofline 2>&1 | grep -E 'ROOFLINE|bandwidth|peak' | tee -a "$log"

for desc in "$art"/sm90a/*.launch "$art"/extra/sm90a/*.launch; do
  [ -f "$desc" ] || continue
  rank=$(sed -n 's/^rank = //p' "$desc")
  grids="$(grid_for "$rank" full) $(grid_for "$rank" odd)"
  [ "$rank" = 2 ] && grids="$grids 1030,1022"
  for grid in $grids; do
    "$run" "$desc" --grid "$grid" --steps 3 2>&1 | grep -E '^RESULT|FAIL|^error' \
      | sed 's/device="[^"]*" //' \
      | sed "s|^|check $(basename "$desc" .launch) $grid: |" | tee -a "$log"
  done
done
elapsed check
for name in ${SANITIZE:-box-2d225p box-2d9p heat-3d box-3d27p}; do
  desc=$art/sm90a/$name.launch
  rank=$(sed -n 's/^rank = //p' "$desc")
  grid=259,134; [ "$rank" = 3 ] && grid=37,29,41
  for tool in memcheck racecheck; do
    if compute-sanitizer --tool "$tool" --error-exitcode 9 "$run" "$desc" \
        --grid "$grid" --steps 2 --warmup 0 > "$out/san-$name-$tool.txt" 2>&1; then
      echo "sanitize $name $tool: PASS" | tee -a "$log"
    else
      echo "sanitize $name $tool: FAIL" | tee -a "$log"
      tail -20 "$out/san-$name-$tool.txt" | tee -a "$log"
    fi
  done
done
elapsed sanitize

steps=${STEPS:-1000}; steps1=${STEPS_1D:-10000}; steps3=${STEPS_3D:-100}
if [ -d "$spider" ]; then
  (cd "$spider" && cmake -B build -DCMAKE_BUILD_TYPE=Release > "$out/spider-build.txt" 2>&1 \
    && cmake --build build -j 16 >> "$out/spider-build.txt" 2>&1) \
    || { echo "SPIDER build failed" | tee -a "$log"; tail -20 "$out/spider-build.txt"; }
  for bin in stencil_2d_half_sparse stencil_2d_half_dense; do
    "$spider/build/bin/$bin" -M 10240 -N 10240 -T "$steps" --profile 2>&1 \
      | tail -1 | sed "s|^|time spider $bin: |" | tee -a "$log"
  done
  "$spider/build/bin/stencil_1d_half_sparse" -M 1024 -N 10000 -T "$steps1" --profile 2>&1 \
    | tail -1 | sed "s|^|time spider stencil_1d_half_sparse: |" | tee -a "$log"
fi
for folder in sm90a sm90 tc extra/sm90a extra/sm90; do
  for desc in "$art/$folder"/*.launch; do
    [ -f "$desc" ] || continue
    rank=$(sed -n 's/^rank = //p' "$desc")
    case "$rank" in
      1) grid=10240000; s=$steps1 ;; 2) grid=10240,10240; s=$steps ;;
      3) grid=512,512,512; s=$steps3 ;;
    esac
    "$run" "$desc" --grid "$grid" --steps "$s" --no-check 2>&1 \
      | grep -E '^RESULT|^error' | sed 's/device="[^"]*" //' \
      | sed "s|^|time $folder $(basename "$desc" .launch): |" | tee -a "$log"
  done
done
elapsed time

metrics=dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,smsp__inst_executed.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
for name in ${NCU_KERNELS:-box-2d9p box-2d225p}; do
  for folder in sm90a sm90; do
    ncu --metrics "$metrics" --launch-skip 2 --launch-count 1 --csv \
      "$run" "$art/$folder/$name.launch" --grid 10240,10240 --steps 4 --no-check \
      > "$out/ncu-$folder-$name.csv" 2>&1
    echo "ncu $folder $name:" | tee -a "$log"
    grep -E '^"[0-9]' "$out/ncu-$folder-$name.csv" \
      | awk -F'","' '{printf "  %s = %s\n", $(NF-2), $NF}' | tr -d '"' | tee -a "$log"
  done
done
elapsed ncu
