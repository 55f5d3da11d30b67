#!/usr/bin/env bash
# One device call for issue 13's figures: the roofline, then every launch
# description of PERF_DIR timed at the seed sizes (1-D 10240000, 2-D 10240^2,
# 3-D 512^3) without the check (bench/check-fft.sh checks), then a mutated
# spectrum that must FAIL, then compute-sanitizer memcheck on FFT kernels of
# CHECK_DIR at small odd sizes.
#   bench/bench-fft.sh PERF_DIR CHECK_DIR
# SKIP_SANITIZE=1 leaves out compute-sanitizer.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
perf=${1:?usage: bench-fft.sh PERF_DIR CHECK_DIR}
checks=${2:?usage: bench-fft.sh PERF_DIR CHECK_DIR}
out=${OUT:-/tmp/bench-fft}
mkdir -p "$out"
source "$root/bench/common.sh"
build_runner "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/== device: /'
"$run" --roofline 2>&1 | grep ROOFLINE
for desc in "$perf"/*.launch; do
  [ -f "$desc" ] || continue
  name=$(basename "$desc" .launch)
  rank=$(sed -n 's/^rank = //p' "$desc")
  case $rank in 1) grid=10240000 ;; 2) grid=10240,10240 ;; 3) grid=512,512,512 ;; esac
  f=$(steps_per_launch "$desc")
  steps=$(( (32 + f - 1) / f * f ))
  line=$(timeout 60 "$run" "$desc" --grid "$grid" --steps "$steps" --warmup "$f" --no-check 2>&1 | grep '^RESULT')
  echo "$name T=$f steps=$steps $(echo "$line" | grep -o 'gstencil_s=[0-9.]*') $(echo "$line" | grep -o 'ms=[0-9.]*')"
done
# A mutated spectrum must fail the check: the lowest bit of the high word of
# S[0] = H(0)^T / N flipped (a relative change of 2^-20, about 1e-6).
mut=$out/mutated.launch
cp "$checks/heat-2d-halo-4.launch" "$mut"
cp "$checks/heat-2d-halo-4.ptx" "$out/"
python3 - "$mut" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
for i, l in enumerate(lines):
    if l.startswith("coefficients = "):
        words = l[len("coefficients = "):].split(",")
        words[1] = "%08x" % (int(words[1], 16) ^ 0x00000001)
        lines[i] = "coefficients = " + ",".join(words)
open(p, "w").write("\n".join(lines))
PY
echo "== mutated spectrum (must FAIL):"
"$run" "$mut" --grid 523,389 --steps 8 --warmup 0 2>&1 | grep '^check:'
echo "== unmutated:"
"$run" "$checks/heat-2d-halo-4.launch" --grid 523,389 --steps 8 --warmup 0 2>&1 | grep '^check:'
[ -n "${SKIP_SANITIZE:-}" ] && exit 0
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
for k in heat-2d-halo-4 heat-1d-periodic-16 box-3d27p-dirichlet-4 irregular-2d-halo-4 box-2d9p-periodic-16; do
  desc=$checks/$k.launch
  rank=$(sed -n 's/^rank = //p' "$desc")
  case $rank in 1) grid=4099 ;; 2) grid=203,157 ;; 3) grid=41,37,43 ;; esac
  f=$(steps_per_launch "$desc")
  for tool in memcheck racecheck synccheck; do
    res=$(timeout 200 "$san" --tool $tool --error-exitcode 9 "$run" "$desc" --grid "$grid" --steps "$f" --warmup 0 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^check:' | tr '\n' ' ')
    echo "sanitize $tool $k: $res"
  done
done
