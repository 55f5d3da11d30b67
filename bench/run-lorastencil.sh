#!/usr/bin/env bash
# On the GPU machine (sm_90, CUDA 13 nvcc at /usr/local/cuda/bin, no
# internet): the LoRAStencil baseline (SC'24, github.com/zondie17/LoRAStencil,
# f64 on the m8n8k4 Tensor Cores) at the seeds' sizes. Its sources lie
# unpacked in LORA_DIR (default baselines/LoRAStencil, git-ignored through
# .git/info/exclude, so the device tool needs carry ["baselines/LoRAStencil"]);
# they are never edited and never copied into the project. Then, from the
# repository root:
#   bench/run-lorastencil.sh
# 1. copies LORA_DIR to /tmp/lorastencil and there turns its sm_80 flags
#    (CUDA_ARCHITECTURES "80", --gpu-architecture=sm_80) into LORA_ARCH
#    (default 90), the only change; builds lorastencil_2d and lorastencil_3d
#    with its CMakeLists.txt as its README does (cmake, make). A failed build
#    exits 2 with the log's tail; LORA_BUILD_ONLY=1 stops after the build
#    (for a compile check without a GPU).
# 2. times box2d1r, star2d1r, box2d3r, star2d3r at N_2D^2 (10240) and box3d1r
#    at N_3D^3 (512), LORA_REPS runs each (default 2, the fastest is kept),
#    and prints per shape
#      LORA shape=<name> n=<NxN[xN]> steps=<T> ms=<total ms> gstencils=<G>
#    G = interior points x T / s / 1e9 (every grid point; the artifact's
#    halo, 4 (2-D) or 1/2/4 (3-D) cells of fixed values, not counted).
#    LORA_SHAPES (a list of those names) times only those.
# 3. LORA_CHECK=1: a second build with -DCHECK_ERROR (a compiler flag; the
#    sources have the check behind `#if defined(CHECK_ERROR)`, off by
#    default) runs one launch of each shape at a small size against the
#    artifact's own CPU reference and prints LORA-CHECK lines with the
#    number of points it reports as off by more than 1e-7 (the artifact
#    itself prints "Correct!" whatever it found).
#
# What the binaries do and print (src/2d/gpu.cu, src/3d/gpu_box.cu):
#   lorastencil_2d SHAPE M N LAUNCHES, lorastencil_3d box3d1r H M N LAUNCHES
#   (the README's "time_size") fill an (M+8) x (N+8) grid (3-D: (H+2) x
#   (M+4) x (N+8)) with rand() % 100, copy it to the GPU, then time, on the
#   host (std::chrono, no warm-up), LAUNCHES kernel launches (ping-pong
#   buffers) and one cudaDeviceSynchronize, and print
#     Time = <integer ms>[ms]
#     GStencil/s = M * N [* H] * LAUNCHES * F / (microseconds / 1e6) / 1e9
#   with F = 3 for box2d1r, star2d1r and box2d3r, 1 for star2d3r, box3d1r.
#   One launch computes a 7x7 stencil: box2d1r and box2d3r run the same
#   kernel (kernel2d_box2d3r, the same 49 weights), star2d1r a 25-point
#   diamond of radius 3 with fixed weights; the artifact counts one launch
#   of box2d1r / star2d1r as 3 fused radius-1 steps (F = 3), and so does its
#   box2d3r print, although one launch there is one radius-3 step. Hence,
#   per shape, with K steps per launch (3 for box2d1r, star2d1r; 1 for the
#   others):
#     LAUNCHES = ceil(T / K), steps = K * LAUNCHES (1002 for T = 1000 when
#     K = 3: the steps printed are those run);
#     seconds = points * LAUNCHES * F / (GStencil/s * 1e9)  (the artifact's
#     microsecond timer, more digits than its integer "Time ="; both logged);
#     ms = 1e3 * seconds, gstencils = points * steps / seconds / 1e9
#   (= the printed figure, except box2d3r: a third of it).
# Sizes: 2-D M a multiple of 32 and N of 64, 3-D M of 8 and N of 64 (the
# kernels have no bounds checks); the grids are int-indexed (< 2^31 cells).
# CUDA_MODULE_LOADING defaults to EAGER here so that no module load falls
# into the timed loop.
# Logs: $OUT (or /tmp/lora-out)/lorastencil.txt, build logs next to it.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=${LORA_DIR:-$root/baselines/LoRAStencil}
arch=${LORA_ARCH:-90}
work=/tmp/lorastencil
out=${OUT:-/tmp/lora-out}
mkdir -p "$out"
log=$out/lorastencil.txt
n2=${N_2D:-10240}; steps2=${STEPS_2D:-1000}
n3=${N_3D:-512};   steps3=${STEPS_3D:-1000}
reps=${LORA_REPS:-2}
export CUDA_MODULE_LOADING=${CUDA_MODULE_LOADING:-EAGER}

die() { echo "LORA FAIL: $*" | tee -a "$log" >&2; exit 2; }
: > "$log"

[ -f "$src/CMakeLists.txt" ] && [ -f "$src/src/2d/gpu.cu" ] \
  || die "no LoRAStencil sources in $src (carry baselines/LoRAStencil to the GPU machine)"
# The artifact's CMakeLists.txt sets CMAKE_CUDA_COMPILER to this path.
[ -x /usr/local/cuda/bin/nvcc ] || die "/usr/local/cuda/bin/nvcc missing (CMakeLists.txt requires it)"

# Copies $src to $1 and patches the arch flags there; fails unless exactly
# the three targets' and the global setting changed.
prepare() {
  rm -rf "$1" && mkdir -p "$1" && cp -r "$src"/. "$1"/ && rm -rf "$1/build" || die "copy to $1"
  sed -i -e "s/CUDA_ARCHITECTURES \"80\"/CUDA_ARCHITECTURES \"$arch\"/g" \
         -e "s/--gpu-architecture=sm_80/--gpu-architecture=sm_$arch/g" \
         -e "s/set(CMAKE_CUDA_ARCHITECTURES 80)/set(CMAKE_CUDA_ARCHITECTURES $arch)/" \
         "$1/CMakeLists.txt"
  if grep -nE 'sm_80|compute_80|ARCHITECTURES[ "]*80' "$1/CMakeLists.txt" \
     || [ "$(grep -c "sm_$arch" "$1/CMakeLists.txt")" != 3 ]; then
    die "arch patch of $1/CMakeLists.txt incomplete (the artifact's flags changed?)"
  fi
}

# build DIR LOGNAME [extra cmake args]: the README's cmake + make, 2-D and
# 3-D targets only.
build() {
  local dir=$1 blog=$out/$2; shift 2
  { cmake -S "$dir" -B "$dir/build" "$@" && \
    cmake --build "$dir/build" -j "$(nproc)" --target lorastencil_2d lorastencil_3d; } > "$blog" 2>&1 \
    || { tail -40 "$blog"; die "build of $dir failed (log $blog)"; }
  [ -x "$dir/build/lorastencil_2d" ] && [ -x "$dir/build/lorastencil_3d" ] \
    || die "build of $dir made no binaries (log $blog)"
  echo "== built $dir/build (sm_$arch; log $blog)" | tee -a "$log"
}

prepare "$work"
diff -u "$src/CMakeLists.txt" "$work/CMakeLists.txt" | sed 's/^/   /' >> "$log"
build "$work" build.txt
if [ "${LORA_CHECK:-0}" = 1 ]; then
  prepare "$work-check"
  build "$work-check" build-check.txt -DCMAKE_CUDA_FLAGS=-DCHECK_ERROR
fi
[ "${LORA_BUILD_ONLY:-0}" = 1 ] && { echo "== LORA_BUILD_ONLY: not run" | tee -a "$log"; exit 0; }

source "$root/bench/common.sh"   # elapsed (begin_log would empty the log)
echo "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)" | tee -a "$log"
start=$(date +%s)

status=0
# measure NAME RANK K F: runs the binary LORA_REPS times, prints the LORA line
# of the fastest run (K steps per launch, F the artifact's print factor).
measure() {
  local name=$1 rank=$2 k=$3 f=$4 n steps launches points size best="" r rl
  if [ "$rank" = 2 ]; then n=$n2; steps=$steps2; size=${n}x${n}
  else n=$n3; steps=$steps3; size=${n}x${n}x${n}; fi
  launches=$(( (steps + k - 1) / k )); steps=$(( k * launches ))
  for r in $(seq "$reps"); do
    rl=$out/$name.$r.txt
    if [ "$rank" = 2 ]; then
      timeout "${LORA_TIMEOUT:-300}" "$work/build/lorastencil_2d" "$name" "$n" "$n" "$launches" > "$rl" 2>&1
    else
      timeout "${LORA_TIMEOUT:-300}" "$work/build/lorastencil_3d" "$name" "$n" "$n" "$n" "$launches" > "$rl" 2>&1
    fi
    local rc=$?
    sed "s|^|$name run $r: |" "$rl" >> "$log"
    local g t
    g=$(sed -n 's/^GStencil\/s = //p' "$rl"); t=$(sed -n 's/^Time = \([0-9]*\)\[ms\]/\1/p' "$rl")
    if [ "$rc" != 0 ] || [ -z "$g" ]; then
      echo "LORA FAIL shape=$name run $r: exit $rc, no GStencil/s line (log $rl)" | tee -a "$log"
      tail -5 "$rl"; status=1; continue
    fi
    # points, seconds from the printed rate (see the header), ms, gstencils.
    local line
    line=$(awk -v n="$n" -v rank="$rank" -v l="$launches" -v s="$steps" -v f="$f" -v g="$g" -v t="$t" \
      -v name="$name" -v size="$size" 'BEGIN {
        p = (rank == 2) ? n * n : n * n * n
        secs = p * l * f / (g * 1e9)
        printf "%.6f LORA shape=%s n=%s steps=%d ms=%.3f gstencils=%.3f | launches=%d printed_ms=%s printed_gstencils=%s\n",
          secs * 1e3, name, size, s, secs * 1e3, p * s / secs / 1e9, l, t, g }')
    echo "$name run $r: ${line#* }" >> "$log"
    if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
      best=$line
    fi
  done
  [ -n "$best" ] && { best=${best#* }; echo "${best%% |*}" | tee -a "$log"; }
}

# LORA_SHAPES (default all five) picks the shapes timed.
shapes=${LORA_SHAPES:-"box2d1r star2d1r box2d3r star2d3r box3d1r"}
wanted() { [[ " $shapes " == *" $1 "* ]]; }
wanted box2d1r && measure box2d1r 2 3 3
wanted star2d1r && measure star2d1r 2 3 3
wanted box2d3r && measure box2d3r 2 1 3
wanted star2d3r && measure star2d3r 2 1 1
wanted box3d1r && measure box3d1r 3 1 1
elapsed "timing"

if [ "${LORA_CHECK:-0}" = 1 ]; then
  # One launch at CHECK_N_2D^2 / CHECK_N_3D^3 against the CPU reference of
  # main.cu (all interior points, |diff| > 1e-7 printed one line each).
  cn2=${CHECK_N_2D:-1024}; cn3=${CHECK_N_3D:-128}
  for name in box2d1r star2d1r box2d3r star2d3r box3d1r; do
    case $name in
      *3d*) cmd=("$work-check/build/lorastencil_3d" "$name" "$cn3" "$cn3" "$cn3" 1)
            pts=$((cn3 * cn3 * cn3)); pat='^height = ' ;;
      *)    cmd=("$work-check/build/lorastencil_2d" "$name" "$cn2" "$cn2" 1)
            pts=$((cn2 * cn2)); pat='^row = ' ;;
    esac
    cl=$out/check-$name.txt
    timeout "${LORA_TIMEOUT:-300}" "${cmd[@]}" > "$cl" 2>&1; rc=$?
    bad=$(grep -c "$pat" "$cl")
    echo "LORA-CHECK shape=$name points=$pts mismatches=$bad exit=$rc ($(grep -c '^Correct!' "$cl") 'Correct!'; first: $(grep -m1 "$pat" "$cl"))" | tee -a "$log"
    [ "$rc" = 0 ] && [ "$bad" = 0 ] || status=1
    # Keep the log small: the mismatch lines can be one per point.
    [ "$bad" -gt 20 ] && { grep -v "$pat" "$cl" > "$cl.short"; grep -m20 "$pat" "$cl" >> "$cl.short"; mv "$cl.short" "$cl"; }
  done
  elapsed "check"
fi
echo "== summary"
grep -E '^LORA' "$log"
exit $status
