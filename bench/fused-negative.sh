#!/usr/bin/env bash
# On the GPU machine: the runner's check of a composed kernel can fail
# (issue 17). From bench/compile-fused.sh's tc-f64-t2/box-2d9p-f64, at an odd
# size, four steps (two launches): the description as compiled (PASS), with
# the band kernel's keys removed so that the band keeps stale values (FAIL),
# and with one reference weight changed by 1e-3 relative (FAIL: the kernel's
# composed weights no longer match).
#   bench/fused-negative.sh ART_DIR     (logs to $OUT or /tmp/fused-out)
# NEGATIVE_KERNEL=FOLDER/NAME and NEGATIVE_FACTOR=F test another kernel, the
# weight scaled by F: an f16 kernel's tolerance (twice the fused steps of
# f16 rounding) is about 1.5% of the largest value, so there a weight is
# changed by 5% (F = 1.05), e.g. the low-rank chain of 4 composed Heat-2D
# steps, tc-lowrank-t4/heat-2d; in bf16 (u = 2^-8) the tolerance of two
# launches of 3 steps is about 21%, so F = 1.5 there. Each variant runs two
# launches (2 x steps_per_launch steps).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
art=${1:?usage: fused-negative.sh ART_DIR}
out=${OUT:-/tmp/fused-out}
mkdir -p "$out"
log=$out/negative.txt
source "$root/bench/common.sh"
build_runner "$out"
begin_log
kernel=${NEGATIVE_KERNEL:-tc-f64-t2/box-2d9p-f64}
factor=${NEGATIVE_FACTOR:-1.001}
desc=$art/$kernel.launch
tmp=$(mktemp -d)
cp "$art/$kernel.ptx" "$tmp/"
cp "$desc" "$tmp/as-compiled.launch"
sed '/^band_/d' "$desc" > "$tmp/no-band.launch"
awk -F' = ' -v f="$factor" '/^weights = /{n=split($2,w,","); w[5]=w[5]*f; s=w[1];
  for(i=2;i<=n;i++) s=s","w[i]; print "weights = " s; next} {print}' \
  "$desc" > "$tmp/mutated-weight.launch"
steps=$((2 * $(steps_per_launch "$desc")))
for variant in as-compiled no-band mutated-weight; do
  "$run" "$tmp/$variant.launch" --grid 523,389 --steps "$steps" 2>&1 \
    | grep -E '^check|^RESULT|worst' | sed "s|^|$kernel $variant: |" | tee -a "$log"
done
rm -rf "$tmp"
