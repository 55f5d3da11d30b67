#!/usr/bin/env bash
# On the GPU machine: weights replaced at run time give what a kernel
# compiled with them gives (issue 18, docs/Runtime.md).
#   bench/run-repack.sh ART_DIR
# ART_DIR (made here by bench/compile-repack.sh) holds one folder per case
# with a.{ptx,launch} (compiled with weights A), b.{ptx,launch} (compiled
# with weights B) and b.weights. For each case, at the full and the odd
# size (grid_for), 4 steps on the same random input:
#   stencil-run a.launch --weights B  (libStencilRuntime repacks B; the
#                                      check uses B)
#   stencil-run b.launch              (the compiled kernel)
# both must pass their f64 reference check and their results must be equal
# bit for bit (numpy). Then the Python module on the first case: a Kernel
# of a.launch given B through set_weights, between runs on PyTorch
# tensors, against b.launch. Log: $OUT/repack.txt (BITWISE lines).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=$(cd "${1:?usage: run-repack.sh ART_DIR}" && pwd)
out=${OUT:-/tmp/repack-out}
mkdir -p "$out"
log=$out/repack.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
status=0
# CASES (a regular expression, default all) picks the cases; AB=0 skips
# the timing.
for dir in "$art"/*/; do
  [ -f "$dir/a.launch" ] || continue
  [[ $(basename "$dir") =~ ${CASES:-.} ]] || continue
  name=$(basename "$dir")
  rank=$(sed -n 's/^rank = //p' "$dir/a.launch")
  for size in full odd; do
    grid=$(grid_for "$rank" "$size")
    rm -f "$out"/x.npy "$out"/y.npy
    "$run" "$dir/a.launch" --grid "$grid" --steps 4 --warmup 0 --seed 11 \
      --weights "$(cat "$dir/b.weights")" --save-output "$out/x.npy" \
      > "$out/a.txt" 2>&1
    ra=$?
    "$run" "$dir/b.launch" --grid "$grid" --steps 4 --warmup 0 --seed 11 \
      --save-output "$out/y.npy" > "$out/b.txt" 2>&1
    rb=$?
    grep -h "RESULT\|FAIL\|error\|weights:" "$out/a.txt" "$out/b.txt" \
      | sed "s|^|  $name $size: |" >> "$log"
    verdict=$(python3 - "$out/x.npy" "$out/y.npy" <<'PY'
import sys, numpy as np
try:
    x, y = np.load(sys.argv[1]), np.load(sys.argv[2])
except Exception as e:
    print("MISSING (%s)" % e); sys.exit()
same = x.shape == y.shape and x.tobytes() == y.tobytes()
print("EQUAL" if same else "DIFFERENT (%d of %d values)"
      % (int((x != y).sum()), x.size))
PY
)
    echo "BITWISE $name $size grid=$grid replaced-vs-compiled: $verdict" \
      "(runner exit $ra, $rb)" | tee -a "$log"
    [ "$verdict" = EQUAL ] && [ $ra = 0 ] && [ $rb = 0 ] || status=1
  done
done
elapsed "runner cases"

# The Python module: set_weights between runs.
first=$art/sptc-heat2d/
[ -d "$first" ] || first=$(ls -d "$art"/*/ | head -1)
PYTHONPATH=$root/python STENCIL_RUNTIME_LIBRARY=/tmp/build-run/runtime/libStencilRuntime.so \
python3 - "$first" <<'PY' 2>&1 | tee -a "$log"
import sys, torch, stencil_runtime as sr
d = sys.argv[1]
a, b = sr.Kernel(d + "/a.launch"), sr.Kernel(d + "/b.launch")
wb = [float(x) for x in open(d + "/b.weights").read().split(",")]
shape = (2053, 4099)[-a.rank:] if a.rank < 3 else (131, 257, 129)
g = torch.Generator(device="cuda").manual_seed(3)
x = (torch.rand(shape, device="cuda", generator=g) * 2 - 1).to(torch.float16)
def run(k, steps):
    i, o = x.clone(), torch.empty_like(x)
    return k.run(i, o, steps).clone()
before = run(a, 3)               # the compiled weights A
a.set_weights(wb)
after = run(a, 3)                # B, repacked by the runtime
fresh = run(b, 3)                # B, compiled
torch.cuda.synchronize()
same = torch.equal(after.view(torch.int16), fresh.view(torch.int16))
changed = not torch.equal(before.view(torch.int16), after.view(torch.int16))
print("BITWISE python %s set_weights-vs-compiled: %s (weights read back "
      "equal: %s; result changed from A: %s)"
      % (d.rstrip("/").split("/")[-1], "EQUAL" if same else "DIFFERENT",
         list(a.weights) == wb, changed))
try:
    a.set_weights(wb[:-1])
except sr.StencilError as e:
    print("  wrong count refused: %s" % e.status)
PY
elapsed python

# The cost of the .const weights: the CUDA-core kernels with immediates
# (imm) and with the array (cst), alternately, 3 times each, at the seeds'
# size, 50 steps (no check: the bit-for-bit cases above check).
if [ -d "$art/ab" ] && [ "${AB:-1}" != 0 ]; then
  for imm in "$art"/ab/imm-*.launch; do
    cst=${imm/imm-/cst-}
    rank=$(sed -n 's/^rank = //p' "$imm")
    grid=$(grid_for "$rank" seed)
    for rep in 1 2 3; do
      for f in "$imm" "$cst"; do
        g=$("$run" "$f" --grid "$grid" --steps 50 --warmup 5 --no-check 2>&1 \
            | sed -n 's/.*gstencil_s=\([0-9.]*\).*/\1/p')
        echo "AB $(basename "$f" .launch) rep=$rep grid=$grid gstencil_s=$g" \
          | tee -a "$log"
      done
    done
  done
  elapsed "weights array cost"
fi
exit $status
