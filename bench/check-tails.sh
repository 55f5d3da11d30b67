#!/usr/bin/env bash
# Any number of time steps through every kernel that fuses steps: its
# one-step tail kernel does the steps a launch leaves over (docs/Runtime.md,
# docs/LaunchDescription.md, the tail_* keys).
#   bench/check-tails.sh compile ART_DIR [CHIP (sm_90)]   (here)
#   bench/check-tails.sh run ART_DIR                      (GPU machine)
# compile writes ART_DIR/<kind>/<example>.{ptx,launch} for every fusing
# kind: the CUDA-core temporal blocking, staged (cc-staged-t3: 1-D, 2-D, 3-D;
# cc-f64-t4: 1-D, 2-D), the 2-D row sweep (cc-rows-t3, cc-rows-phases-t2), the
# streamed 3-D kernels (cc-stream-t2, cc-stream-f64-t3), the periodic and
# Dirichlet boundaries (cc-periodic-t2, cc-dirichlet-t2), a general body
# (cc-general-t2); the composed steps of the Tensor Core pipelines with
# their band kernel (tc-t3, tc-f64-t4, sptc-t4, sptc-t2 in 3-D, the low-rank
# chain lowrank-t4; the sm_90a warpgroup kernel wg-t2 when CHIP is sm_90a);
# FFT (fft-t4, fft-t3 periodic); and what --lower-to-auto picks (auto:
# the README's Heat-2D, examples/heat-2d.mlir with `steps 10 boundary
# periodic`, and four examples with 4 steps). Also ART_DIR/app: the header
# of auto/heat-2d-readme (stencil_kernels::heat2d) for
# examples/apps/heat2d/heat2d_app.cu.
# run checks each description at the odd size (bench/common.sh's grid_for)
# for 1, 2, 3, 5 and 7 steps against stencil-run's f64 reference (CHECK
# lines; $CHECK_JOBS descriptions at a time, default half the cores, each
# run under $CHECK_TIMEOUT seconds, default 120); then the README Heat-2D's
# auto kernel with 10 steps from the same input
# through stencil-run, the header (heat2d_app check) and the Python module
# (heat2d_torch.py check: stencil_runtime.Kernel.run on PyTorch tensors),
# whose results must equal stencil-run's bit for bit (BITWISE lines, also
# for 1, 3, 5 and 7 steps). Log: $OUT/check-tails.txt (default
# /tmp/check-tails-out), ending in a PASS/FAIL count.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: check-tails.sh compile|run ART_DIR [CHIP]}
out=${2:?usage: check-tails.sh compile|run ART_DIR [CHIP]}
source "$root/bench/common.sh"

if [ "$mode" = compile ]; then
  begin_compile "${3:-}"
  ex=$root/examples
  for name in heat-1d heat-2d box-2d9p heat-3d; do
    compile_example lower-to-cuda-core "$ex/$name.mlir" "$name" cc-staged-t3 \
      "fused-steps=3 stream=off"
  done
  for name in heat-1d heat-2d star-2d13p; do
    compile_example lower-to-cuda-core \
      "$(variant_source "$ex/$name.mlir" "$name-f64" f64)" "$name-f64" \
      cc-f64-t4 "fused-steps=4"
  done
  for name in heat-2d box-2d25p; do
    compile_example lower-to-cuda-core "$ex/$name.mlir" "$name" cc-rows-t3 \
      "fused-steps=3 stream=on"
    compile_example lower-to-cuda-core "$ex/$name.mlir" "$name" \
      cc-rows-phases-t2 "fused-steps=2 stream=on row-phases=2"
  done
  for name in heat-3d box-3d27p; do
    compile_example lower-to-cuda-core "$ex/$name.mlir" "$name" cc-stream-t2 \
      "fused-steps=2 stream=on"
    compile_example lower-to-cuda-core \
      "$(variant_source "$ex/$name.mlir" "$name-f64" f64)" "$name-f64" \
      cc-stream-f64-t3 "fused-steps=3 stream=on"
  done
  compile_example lower-to-cuda-core \
    "$(variant_source "$ex/heat-2d.mlir" heat-2d-periodic f32 periodic)" \
    heat-2d-periodic cc-periodic-t2 "fused-steps=2"
  compile_example lower-to-cuda-core \
    "$(variant_source "$ex/heat-3d.mlir" heat-3d-dirichlet f32 'dirichlet(0.5)')" \
    heat-3d-dirichlet cc-dirichlet-t2 "fused-steps=2"
  compile_example lower-to-cuda-core "$ex/general-2d.mlir" general-2d \
    cc-general-t2 "fused-steps=2"
  for name in heat-1d box-2d9p box-2d25p heat-3d; do
    compile_example lower-to-tc "$ex/$name.mlir" "$name" tc-t3 "fused-steps=3"
  done
  for name in heat-2d box-3d27p; do
    compile_example lower-to-tc \
      "$(variant_source "$ex/$name.mlir" "$name-f64" f64)" "$name-f64" \
      tc-f64-t4 "fused-steps=4"
  done
  for name in heat-1d heat-2d; do
    compile_example lower-to-sptc "$ex/$name.mlir" "$name" sptc-t4 \
      "fused-steps=4"
  done
  compile_example lower-to-sptc "$ex/box-3d27p.mlir" box-3d27p sptc-t2 \
    "fused-steps=2"
  compile_example lower-to-tc "$ex/heat-2d.mlir" heat-2d lowrank-t4 \
    "low-rank=true fused-steps=4"
  if [ "$chip" = sm_90a ]; then
    compile_example lower-to-sptc "$ex/box-2d49p.mlir" box-2d49p wg-t2 \
      "mma=warpgroup fused-steps=2"
    compile_example lower-to-tc "$ex/box-2d9p.mlir" box-2d9p wg-t2 \
      "mma=warpgroup fused-steps=2"
  fi
  # (The FFT tailoring never fuses more steps than the op has: 8 and 9.)
  for name in heat-1d heat-2d heat-3d; do
    sed -e 's/f16/f64/g' -e 's/\] : memref/] steps 8 : memref/' \
      "$ex/$name.mlir" > "$tmp/$name-fft.src.mlir"
    compile_example lower-to-fft "$tmp/$name-fft.src.mlir" "$name-f64" \
      fft-t4 "fused-steps=4"
  done
  sed -e 's/f16/f64/g' -e 's/\] : memref/] steps 9 boundary periodic : memref/' \
    "$ex/heat-2d.mlir" > "$tmp/heat-2d-fft-periodic.src.mlir"
  compile_example lower-to-fft "$tmp/heat-2d-fft-periodic.src.mlir" \
    heat-2d-f64-periodic fft-t3 "fused-steps=3"
  # What --lower-to-auto picks (stencil_runtime.compile's default): the
  # README's Heat-2D (examples/heat-2d.mlir with `steps 10 boundary
  # periodic`, where it fuses steps), and the examples with 4 steps.
  sed 's/\] : memref/] steps 10 boundary periodic : memref/' \
    "$ex/heat-2d.mlir" > "$tmp/heat-2d-readme.src.mlir"
  compile_example lower-to-auto "$tmp/heat-2d-readme.src.mlir" heat-2d-readme \
    auto ""
  for name in heat-1d box-2d9p star-2d13p heat-3d; do
    sed 's/\] : memref/] steps 4 : memref/' "$ex/$name.mlir" \
      > "$tmp/$name-s4.src.mlir"
    compile_example lower-to-auto "$tmp/$name-s4.src.mlir" "$name-s4" auto ""
  done
  # The header of auto/heat-2d-readme for the C++ app (entry point heat2d).
  mkdir -p "$out/app"
  if [ -f "$out/auto/heat-2d-readme.launch" ]; then
    "$build/bin/stencil-translate" --to-c-header --header-function=heat2d \
      "$tmp/heat-2d-readme.mlir" -o "$out/app/heat2d.h"
    echo "app: header of auto/heat-2d-readme written"
  fi
  # Every kind must carry its tail: list the descriptions without one.
  for desc in "$out"/*/*.launch; do
    if [ "$(steps_per_launch "$desc")" -gt 1 ] && ! grep -q '^tail_kernel = ' "$desc"; then
      echo "NO TAIL: ${desc#$out/}"
    fi
  done
  exit 0
fi

art=$(cd "$out" && pwd)
result=${OUT:-/tmp/check-tails-out}
mkdir -p "$result"; log=$result/check-tails.txt
build_runner "$result"
begin_log
# The checks of one description, each line appended to $log as it ends.
check_tails_of() {
  local desc=$1 rank grid steps lines
  rank=$(sed -n 's/^rank = //p' "$desc")
  grid=$(grid_for "$rank" odd)
  for steps in 1 2 3 5 7; do
    lines=$(timeout "${CHECK_TIMEOUT:-120}" "$run" "$desc" --grid "$grid" \
        --steps "$steps" --warmup 0 --threads 2 2>&1 \
      | grep -E '^RESULT|FAIL|^error|stencil-run: error')
    [ -n "$lines" ] || lines="FAIL: no result within ${CHECK_TIMEOUT:-120} s"
    sed "s|^|CHECK ${desc#$art/} $grid steps=$steps: |" <<< "$lines" | tee -a "$log"
  done
}
jobs=${CHECK_JOBS:-$(( ($(nproc) + 1) / 2 ))}
for desc in "$art"/*/*.launch; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  check_tails_of "$desc" &
done
wait
elapsed "checks"

# The README Heat-2D's auto kernel through the header and the Python module
# (what stencil_runtime.compile("heat-2d.mlir") loads), against
# stencil-run's result on the same input, bit for bit.
heat=$art/auto/heat-2d-readme.launch
lib=/tmp/build-run/runtime
app=
if [ -f "$art/app/heat2d.h" ]; then
  "${NVCC:-nvcc}" -std=c++17 -O2 -I"$art/app" -I"$root/runtime/include" \
    "$root/examples/apps/heat2d/heat2d_app.cu" -L"$lib" -lStencilRuntime \
    -Xlinker -rpath -Xlinker "$lib" -o /tmp/heat2d_tails_app >> "$log" 2>&1 \
    && app=/tmp/heat2d_tails_app
fi
grid=$(grid_for 2 odd)
for steps in 10 1 3 5 7; do
  [ -f "$heat" ] || { echo "FAIL: no $heat" | tee -a "$log"; break; }
  rm -f "$result"/in.npy "$result"/ref.npy
  "$run" "$heat" --grid "$grid" --steps "$steps" --warmup 0 --seed 7 \
    --save-input "$result/in.npy" --save-output "$result/ref.npy" 2>&1 \
    | grep -E '^RESULT|FAIL|^error' | sed "s|^|CHECK auto/heat-2d-readme.launch $grid steps=$steps (reference run): |" \
    | tee -a "$log"
  for client in header python; do
    rm -f "$result/app.npy"
    if [ "$client" = header ]; then
      [ -n "$app" ] || { echo "FAIL: header app not built (see $log)" | tee -a "$log"; continue; }
      "$app" check "$result/in.npy" "$result/app.npy" "$steps" >> "$log" 2>&1
    else
      PYTHONPATH="$root/python" STENCIL_RUNTIME_LIBRARY=$lib/libStencilRuntime.so \
        python3 "$root/examples/apps/heat2d/heat2d_torch.py" check "$heat" \
        "$result/in.npy" "$result/app.npy" "$steps" >> "$log" 2>&1
    fi
    python3 - "$result/ref.npy" "$result/app.npy" "$steps" "$client" <<'PY' | tee -a "$log"
import os
import sys
import numpy as np
if not os.path.exists(sys.argv[2]):
    print("BITWISE client=%s steps=%s FAIL: no result" % (sys.argv[4], sys.argv[3]))
    sys.exit(0)
ref, got = np.load(sys.argv[1]), np.load(sys.argv[2])
same = ref.shape == got.shape and np.array_equal(ref.view(np.uint16), got.view(np.uint16))
print("BITWISE client=%s steps=%s equal=%s%s" % (
    sys.argv[4], sys.argv[3], same, "" if same else " FAIL"))
PY
  done
done
rm -f "$result"/*.npy
elapsed "header and Python"
echo "== $(grep -c -E 'check=PASS|equal=True' "$log") PASS, $(grep -c -E 'FAIL|error' "$log") FAIL or error" | tee -a "$log"
