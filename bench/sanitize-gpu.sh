#!/usr/bin/env bash
# On the GPU machine: compute-sanitizer memcheck, racecheck and synccheck on
# one representative kernel of every kernel kind bench/compile-pipelines.sh
# produces (and 1-D, 2-D and 3-D where a kind has them), at small odd sizes
# (issue #12, hardening). Here (with the compiler), then there:
#   bench/compile-pipelines.sh artifacts/pipelines              # sm_90 kernels
#   bench/compile-pipelines.sh artifacts/pipelines-sm80 sm_80   # tc f64 on m8n8k4
#   bench/sanitize-gpu.sh artifacts/pipelines [SM80_DIR]        # GPU machine
# SM80_DIR (default ART_DIR-sm80) gives the kernels named sm80:... below.
# Sizes: 1-D 100003, 2-D 259x131, 3-D 37x29x41 (outermost first: partial
# tiles in every dimension); 2 steps, or 2 launches of a kernel fusing
# steps, --warmup 0. Each (kernel, tool) counts as PASS only when the
# sanitizer reports 0 errors (--error-exitcode), stencil-run exits 0 and its
# own check against the f64 reference says PASS. One line per (kernel,
# tool), failures followed by the sanitizer's messages, then
# "N passed, N failed". The kernels run JOBS (4) at a time, each process
# its own context on the one GPU; racecheck gets 16 / JOBS CPU workers.
# BUDGET_S (360): no run starts later than that many seconds after the
# first (counted as skipped); PER_RUN_S (150): one run's time limit.
# KERNELS (below) replaces the list. STENCIL_RUN=path skips the build of
# tools/stencil-run, RUNNER_SRC=dir
# builds the runner from another copy of its source; SANITIZER=path
# names compute-sanitizer. Logs: $OUT (or /tmp/sanitize-out)/sanitize.txt,
# every run's whole output in sanitize-full.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: sanitize-gpu.sh ART_DIR [SM80_DIR]}
sm80=${2:-${art%/}-sm80}
out=${OUT:-/tmp/sanitize-out}
mkdir -p "$out"
log=$out/sanitize.txt
: > "$log"
jobs=${JOBS:-4}
budget=${BUDGET_S:-360}
per_run=${PER_RUN_S:-150}
sanitizer=${SANITIZER:-$(command -v compute-sanitizer ||
  ls /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)}
[ -n "$sanitizer" ] || { echo "compute-sanitizer not found (set SANITIZER)"; exit 2; }
tools="memcheck racecheck synccheck"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# kind: kernels (folder/name under ART_DIR, sm80:folder/name under SM80_DIR).
kernels=(
  # Sparse Tensor Cores (mma.sp), 1-D, 2-D, 3-D, and an irregular pattern
  sptc/1d7p sptc/box-2d49p sptc/box-3d27p sptc/irregular-2d
  # dense Tensor Cores f16 and bf16 (m16n8k16)
  tc/heat-1d tc/box-2d49p tc/heat-3d
  tc/1d7p-bf16 tc/box-2d9p-bf16 tc/box-3d27p-bf16
  # Tensor Cores f64: m16n8k4 (sm_90) and m8n8k4 (sm_80 PTX, JIT for this GPU)
  tc/1d5p-f64 tc/box-2d25p-f64 tc/heat-3d-f64
  sm80:tc/box-2d25p-f64 sm80:tc/heat-3d-f64
  # LoRAStencil low-rank chain (2-D only)
  tc-lowrank/heat-2d tc-lowrank/star-2d13p
  # CUDA cores, f16 in 1-D, 2-D (radius 7, irregular), 3-D (planes)
  cuda-core/heat-1d cuda-core/box-2d225p cuda-core/irregular-2d cuda-core/heat-3d
  # CUDA cores, bf16 / f32 / f64
  cuda-core/1d7p-bf16 cuda-core/box-2d49p-bf16
  cuda-core/star-2d13p-f32 cuda-core/box-3d27p-f32
  cuda-core/1d7p-f64 cuda-core/box-2d9p-f64 cuda-core/box-3d27p-f64
  # CUDA cores with temporal blocking (fused steps)
  cuda-core-tb/1d7p cuda-core-tb/box-2d25p cuda-core-tb/box-2d225p
  cuda-core-tb/heat-3d cuda-core-tb/heat-2d-f64 cuda-core-tb/box-3d27p-f64
  # periodic and Dirichlet boundaries, one step and fused steps per launch
  cuda-core-bc/heat-1d-periodic cuda-core-bc/1d7p-dirichlet-tb
  cuda-core-bc/heat-2d-dirichlet cuda-core-bc/box-2d49p-periodic-tb
  cuda-core-bc/heat-3d-periodic cuda-core-bc/box-3d27p-dirichlet-tb
  # the general (non-linear) body: halo, fused, periodic, Dirichlet fused
  cuda-core/general-2d cuda-core-tb/general-2d
  cuda-core-bc/general-2d-periodic cuda-core-bc/general-2d-dirichlet-tb
)
# KERNELS="folder/name ..." replaces the list (e.g. the folders of
# bench/compile-sptc-layouts.sh).
if [ -n "${KERNELS:-}" ]; then
  read -ra kernels <<< "$KERNELS"
fi

source "$root/bench/common.sh"
if [ -n "${STENCIL_RUN:-}" ]; then
  run=$STENCIL_RUN
elif [ -n "${RUNNER_SRC:-}" ]; then
  cmake -S "$RUNNER_SRC" -B /tmp/build-run -DCMAKE_BUILD_TYPE=Release \
      -DSTENCIL_RUN_ROOFLINE=OFF > "$out/build.txt" 2>&1 &&
    cmake --build /tmp/build-run -j 16 >> "$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 2; }
  run=/tmp/build-run/stencil-run
else
  build_runner "$out"
fi
# One line to the terminal and the log.
say() { echo "$*" | tee -a "$log"; }
say "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
say "== $("$sanitizer" --version 2>&1 | grep -i -m1 version)"
race_args=()
if "$sanitizer" --help 2>&1 | grep -q -- --racecheck-num-workers; then
  race_args=(--racecheck-num-workers $(( 16 / jobs > 0 ? 16 / jobs : 1 )))
fi
say "== ${#kernels[@]} kernels x ($tools), $jobs at a time, budget $budget s"
start=$(date +%s)

# The grid of rank $1 for the sanitizer runs (outermost first).
san_grid() {
  case "$1" in 1) echo 100003 ;; 2) echo 259,131 ;; 3) echo 37,29,41 ;; esac
}

# sanitize_one INDEX SPEC: the three tools on one kernel, lines into
# $work/INDEX.res, whole outputs into $work/INDEX-TOOL.log.
sanitize_one() {
  local idx=$1 spec=$2 desc rank grid fused steps tool rlog rc t0 secs
  local summary result verdict errors
  desc=$art/$spec.launch
  case $spec in sm80:*) desc=$sm80/${spec#sm80:}.launch ;; esac
  if [ ! -f "$desc" ]; then
    for tool in $tools; do
      printf 'FAIL %-9s %-37s missing %s\n' "$tool" "$spec" "$desc"
    done > "$work/$idx.res"
    return
  fi
  rank=$(sed -n 's/^rank = //p' "$desc")
  grid=$(san_grid "$rank")
  fused=$(steps_per_launch "$desc")
  steps=2; [ "$fused" -gt 1 ] && steps=$((2 * fused))
  for tool in $tools; do
    rlog=$work/$idx-$tool.log
    if [ $(( $(date +%s) - start )) -ge "$budget" ]; then
      printf 'SKIP %-9s %-37s (time budget of %s s spent)\n' "$tool" "$spec" "$budget"
      continue
    fi
    local args=(--tool "$tool" --error-exitcode 99 --print-limit 20)
    [ "$tool" = racecheck ] && args+=("${race_args[@]}")
    [ "$tool" = memcheck ] && args+=(--leak-check full)
    t0=$(date +%s)
    {
      echo "#### $spec $tool: $sanitizer ${args[*]} stencil-run $desc --grid $grid --steps $steps --warmup 0"
      timeout -k 10 "$per_run" "$sanitizer" "${args[@]}" "$run" "$desc" --grid "$grid" \
        --steps "$steps" --warmup 0 --threads $(( 16 / jobs > 0 ? 16 / jobs : 1 )) 2>&1
      echo "#### exit status $?"
    } > "$rlog"
    rc=$(sed -n 's/^#### exit status //p' "$rlog")
    secs=$(( $(date +%s) - t0 ))
    summary=$(grep -E '(ERROR|RACECHECK) SUMMARY' "$rlog" | sed 's/^========= //' | paste -sd ';')
    result=$(grep -m1 '^RESULT' "$rlog" | grep -o 'check=[A-Z]* max_err=[^ ]* tol=[^ ]*')
    # Clean: memcheck/synccheck print "ERROR SUMMARY: 0 errors", racecheck
    # "RACECHECK SUMMARY: N hazards displayed (0 errors, W warnings)".
    errors=$(echo "$summary" | grep -oE '(SUMMARY: |\()[0-9]+ errors?' | grep -oE '[0-9]+' | sort -n | tail -1)
    verdict=PASS
    [ "$rc" = 0 ] || verdict=FAIL
    [ "${errors:-x}" = 0 ] || verdict=FAIL
    case $result in check=PASS*) ;; *) verdict=FAIL ;; esac
    printf '%s %-9s %-37s %-9s x%d  %s | %s [%d s, rc %s]\n' "$verdict" "$tool" "$spec" \
      "${grid//,/x}" "$steps" "${result:-no RESULT line}" "${summary:-no sanitizer summary}" \
      "$secs" "$rc"
    if [ "$verdict" = FAIL ]; then
      grep -E '^=========|^stencil-run|error|FAIL' "$rlog" | grep -v -e 'SUMMARY' -e '^####' | head -40 | sed 's/^/    /'
    fi
  done > "$work/$idx.res"
}

# JOBS kernels at a time; each finished kernel says so (order of finishing).
for i in "${!kernels[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  ( sanitize_one "$i" "${kernels[$i]}"
    echo "  [$(( $(date +%s) - start )) s] done ${kernels[$i]}" ) &
done
wait
elapsed=$(( $(date +%s) - start ))

say "== results (kernel order; grid outermost first as x, steps; check vs f64 | sanitizer summary [s, exit status])"
for i in "${!kernels[@]}"; do cat "$work/$i.res"; done | tee -a "$log"
for i in "${!kernels[@]}"; do
  for tool in $tools; do [ -f "$work/$i-$tool.log" ] && cat "$work/$i-$tool.log"; done
done > "$out/sanitize-full.txt"
passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
for tool in $tools; do
  say "== $tool: $(grep -c "^PASS $tool " "$log") passed, $(grep -c "^FAIL $tool " "$log") failed, $(grep -c "^SKIP $tool " "$log") skipped"
done
warnings=$(grep -oE '[0-9]+ warnings\)' "$log" | awk '{s += $1} END {print s + 0}')
say "== racecheck warnings (not counted as failures): $warnings"
say "== sanitizer runs: ${elapsed} s wall, $(grep -oE '\[[0-9]+ s, rc' "$log" | grep -oE '[0-9]+' | awk '{s += $1} END {print s + 0}') s summed over runs"
say "== $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$skipped" = 0 ]
