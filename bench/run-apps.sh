#!/usr/bin/env bash
# On the GPU machine: the runtime's applications (issue 18, docs/Runtime.md).
#   bench/run-apps.sh ART_DIR
# ART_DIR (made here by bench/compile-apps.sh) holds heat2d.h (the header of
# Heat-2D through --lower-to-sptc=fused-steps=2), heat2d.{ptx,launch} (the
# same kernel for stencil-run) and heat2d-cc.{ptx,launch} (the CUDA-core
# kernel, for the overhead benchmark). Builds stencil-run and the runtime
# (common.sh), examples/apps/heat2d with nvcc, and bench/runtime-overhead.cu;
# then
#   1. the apps' kernel against stencil-run's, bit for bit: stencil-run
#      saves its input and result (--save-input, --save-output, checked
#      against its f64 reference), the C++ app runs the header's kernel and
#      the Python one (heat2d_torch.py, PyTorch) the .launch on that input,
#      numpy compares the results' bits (full and odd sizes);
#   2. both apps as solvers (their own kernels between chunks of steps);
#   3. the host cost per launch, runtime against bare cuLaunchKernel.
# Log: $OUT/apps.txt (BITWISE, SOLVE and OVERHEAD lines).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=$(cd "${1:?usage: run-apps.sh ART_DIR}" && pwd)
out=${OUT:-/tmp/apps-out}
mkdir -p "$out"
log=$out/apps.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
lib=/tmp/build-run/runtime
nvcc=${NVCC:-nvcc}
"$nvcc" -std=c++17 -O2 -I"$art" -I"$root/runtime/include" \
  "$root/examples/apps/heat2d/heat2d_app.cu" -L"$lib" -lStencilRuntime \
  -Xlinker -rpath -Xlinker "$lib" -o /tmp/heat2d_app >> "$log" 2>&1 || exit 2
"$nvcc" -std=c++17 -O2 -I"$root/runtime/include" "$root/bench/runtime-overhead.cu" \
  -L"$lib" -lStencilRuntime -lcuda -Xlinker -rpath -Xlinker "$lib" \
  -o /tmp/runtime-overhead >> "$log" 2>&1 || exit 2
elapsed build

for grid in 4096,4096 4099,2053; do
  for steps in 2 20 100; do
    rm -f "$out"/in.npy "$out"/ref.npy "$out"/app.npy
    "$run" "$art/heat2d.launch" --grid "$grid" --steps "$steps" --seed 7 \
      --save-input "$out/in.npy" --save-output "$out/ref.npy" 2>&1 \
      | grep -E '^RESULT|error' | tee -a "$log"
    for app in cpp python; do
      rm -f "$out/app.npy"
      if [ "$app" = cpp ]; then
        /tmp/heat2d_app check "$out/in.npy" "$out/app.npy" "$steps" 2>&1 | tee -a "$log"
      else
        PYTHONPATH="$root/python" STENCIL_RUNTIME_LIBRARY=$lib/libStencilRuntime.so \
          python3 "$root/examples/apps/heat2d/heat2d_torch.py" check "$art/heat2d.launch" \
          "$out/in.npy" "$out/app.npy" "$steps" 2>&1 | tee -a "$log"
      fi
      python3 - "$out/ref.npy" "$out/app.npy" "$grid" "$steps" "$app" <<'PY' | tee -a "$log"
import sys
import numpy as np
ref, app = np.load(sys.argv[1]), np.load(sys.argv[2])
same = ref.shape == app.shape and np.array_equal(ref.view(np.uint16), app.view(np.uint16))
print("BITWISE app=%s grid=%s steps=%s shape=%s equal=%s differing=%d" % (
    sys.argv[5], sys.argv[3], sys.argv[4], ref.shape, same,
    -1 if ref.shape != app.shape else int((ref.view(np.uint16) != app.view(np.uint16)).sum())))
PY
    done
  done
done
elapsed "bit-for-bit"
/tmp/heat2d_app solve 4096 4096 1000 10 2>&1 | sed 's/^/SOLVE /' | tee -a "$log"
/tmp/heat2d_app solve 4096 4096 1000 1 2>&1 | sed 's/^/SOLVE /' | tee -a "$log" # odd chunk: rejected
PYTHONPATH="$root/python" STENCIL_RUNTIME_LIBRARY=$lib/libStencilRuntime.so \
  python3 "$root/examples/apps/heat2d/heat2d_torch.py" solve "$art/heat2d.launch" 2>&1 \
  | sed 's/^/SOLVE python /' | tee -a "$log"
compute-sanitizer --tool memcheck --error-exitcode 9 /tmp/heat2d_app solve 515 333 40 4 \
  > "$out/memcheck.txt" 2>&1
echo "memcheck heat2d_app solve: rc=$? $(grep -m1 'ERROR SUMMARY' "$out/memcheck.txt")" | tee -a "$log"
for grid in "64 64" "1024 1024"; do
  /tmp/runtime-overhead "$art/heat2d-cc.launch" $grid 20000 2>&1 | tee -a "$log"
done
elapsed done
