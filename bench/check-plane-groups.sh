#!/usr/bin/env bash
# The 3-D plane sums with groups shorter than their 2 r_z + 1 slots
# (CudaCoreTiling::limitPlaneSumUnroll: above 1536 unrolled FMAs the group
# is U < P iterations and the sums are rotated at the loop's back edge):
# correctness against the f64 reference and speed against the kernel
# unrolled by P, which an older build (OLD_BUILD_DIR, before the limit)
# emits.
#   bench/check-plane-groups.sh compile ART_DIR [CHIP (sm_90)]   (here)
#   bench/check-plane-groups.sh run ART_DIR                      (GPU machine)
# compile writes ART_DIR/groups/<case>.{ptx,launch} (this build: 3-D stars
# of radius 8 (U = 7 of 17) and 12 (U = 5 of 25) in f16 and f32, one column
# and four vector columns; Box-3D27P, Heat-3D, unchanged) and, with
# OLD_BUILD_DIR, ART_DIR/unrolled/ with the same cases from that build.
# run checks each description at the full and the odd size (bench/common.sh
# check_folders: RESULT lines with the GStencil/s and the error against the
# f64 reference). Log: $OUT/check-plane-groups.txt.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: check-plane-groups.sh compile|run ART_DIR [CHIP]}
out=${2:?usage: check-plane-groups.sh compile|run ART_DIR [CHIP]}
source "$root/bench/common.sh"

if [ "$mode" = compile ]; then
  begin_compile "${3:-}"
  one="plane-sums=true threads-y=4 outputs-per-thread=4 planes=64"
  vec="plane-sums=true vector-width=4 threads-y=4 outputs-per-thread=2 planes=64"
  cases=()
  for r in 8 12; do
    for t in f16 f32; do
      python3 "$root/utils/gen-pattern.py" star 3 "$r" --type "$t" \
        > "$tmp/star3d-r$r-$t.src.mlir"
      cases+=("star3d-r$r-$t|$tmp/star3d-r$r-$t.src.mlir")
    done
  done
  cases+=("box-3d27p-f16|$root/examples/box-3d27p.mlir"
          "heat-3d-f16|$root/examples/heat-3d.mlir")
  for folder in groups unrolled; do
    bin=$build
    if [ "$folder" = unrolled ]; then
      [ -n "${OLD_BUILD_DIR:-}" ] || continue
      bin=$OLD_BUILD_DIR
    fi
    for c in "${cases[@]}"; do
      name=${c%%|*} src=${c#*|}
      for variant in one vec; do
        options=$one; [ "$variant" = vec ] && options=$vec
        build=$bin compile_example lower-to-cuda-core "$src" "$name-$variant" \
          "$folder" "$options"
      done
    done
  done
  exit 0
fi

result=${OUT:-/tmp/check-plane-groups-out}
mkdir -p "$result"; log=$result/check-plane-groups.txt
build_runner "$result"
begin_log
folders=()
for f in groups unrolled; do [ -d "$out/$f" ] && folders+=("$f"); done
check_folders "$(cd "$out" && pwd)" "${folders[@]}"
echo "== $(grep -c RESULT "$log") results, $(grep -c FAIL "$log") FAIL lines" | tee -a "$log"
