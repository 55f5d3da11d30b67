#!/usr/bin/env bash
# Checks the FFT kernels (--lower-to-fft) of ART_DIR on the GPU: every
# launch description there runs two launches (2 T steps) on odd grids and is
# checked against stencil-run's f64 reference, within the tolerance its
# fft_error_bound gives (docs/LaunchDescription.md). One line per kernel.
#   bench/check-fft.sh ART_DIR [GRID_KIND]   (GRID_KIND: small (default), odd,
#   full: bench/common.sh's grid_for)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: check-fft.sh ART_DIR [small|odd|full]}
kind=${2:-small}
out=${OUT:-/tmp/check-fft}
mkdir -p "$out"
source "$root/bench/common.sh"
build_runner "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | sed 's/^/== device: /'
pass=0 fail=0
for desc in "$art"/*.launch; do
  [ -f "$desc" ] || continue
  name=$(basename "$desc" .launch)
  rank=$(sed -n 's/^rank = //p' "$desc")
  if [ "$kind" = small ]; then
    case $rank in 1) grid=100003 ;; 2) grid=523,389 ;; 3) grid=67,59,61 ;; esac
  else
    grid=$(grid_for "$rank" "$kind")
  fi
  f=$(steps_per_launch "$desc")
  if timeout 120 "$run" "$desc" --grid "$grid" --steps $((2 * f)) --warmup 0 \
      > "$out/$name.txt" 2>&1; then
    pass=$((pass + 1))
    echo "PASS $name $(grep -m1 '^check:' "$out/$name.txt" | sed 's/.*max abs/max abs/')"
  else
    fail=$((fail + 1))
    echo "FAIL $name: $(tail -3 "$out/$name.txt" | tr '\n' ' ')"
  fi
done
echo "$pass passed, $fail failed"
