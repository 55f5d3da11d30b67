#!/usr/bin/env bash
# The tiling sweep of the streamed 3-D CUDA-core kernels (issue 17):
#   bench/tune-stream.sh compile OUT_DIR [CHIP (sm_90)]   (here)
#   bench/tune-stream.sh run OUT_DIR                      (GPU machine)
# compile writes OUT_DIR/<variant>/<example>.{ptx,launch} for Heat-3D and
# Box-3D27P in f16 and f64, variant = t<steps>-ty<threads-y>-o<outputs per
# thread>-p<planes>; run checks every variant at the odd 3-D size and times
# it (f16 at 768^3, 200 steps; f64 at 512^3, 1000 steps), RESULT lines in
# $OUT/tune.txt, sorted by GStencil/s at the end.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: tune-stream.sh compile|run OUT_DIR [CHIP]}
out=${2:?usage: tune-stream.sh compile|run OUT_DIR [CHIP]}
source "$root/bench/common.sh"

if [ "$mode" = compile ]; then
  build=${BUILD_DIR:-$root/build}
  chip=${3:-sm_90}
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  for name in heat-3d box-3d27p; do
    sed "s/f16/f64/g" "$root/examples/$name.mlir" > "$tmp/$name-f64.src.mlir"
    for t in 1 2 3; do
      for ty in 4 8; do
        for o in 2 4 8; do
          for p in 32 64; do
            [ "$t" = 1 ] || [ "$p" = 32 ] || continue
            v=t$t-ty$ty-o$o-p$p
            opts="stream=on fused-steps=$t threads-y=$ty outputs-per-thread=$o planes=$p"
            compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" "$v" "$opts"
            compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" "$v" "$opts"
          done
        done
      done
    done
  done
  exit 0
fi

result=${OUT:-/tmp/tune-out}
mkdir -p "$result"; log=$result/tune.txt
build_runner "$result"
begin_log
for dir in "$out"/*/; do
  v=$(basename "$dir")
  for desc in "$dir"*.launch; do
    name=$(basename "$desc" .launch)
    fused=$(steps_per_launch "$desc")
    "$run" "$desc" --grid "$(grid_for 3 odd)" --steps $((2 * fused)) 2>&1 \
      | grep -E 'FAIL|^error' | sed "s|^|CHECK $v $name: |" | tee -a "$log"
    case $name in *f64) grid=512,512,512; steps=1000 ;; *) grid=768,768,768; steps=200 ;; esac
    steps=$(( (steps / fused) * fused ))
    "$run" "$desc" --grid "$grid" --steps "$steps" --no-check 2>&1 \
      | grep -E '^RESULT|^error' | sed "s|^|TUNE $v $name: |" | tee -a "$log"
  done
done
elapsed "tune"
echo "== fastest per example"
for name in heat-3d box-3d27p heat-3d-f64 box-3d27p-f64; do
  grep "TUNE [^ ]* $name: RESULT" "$log" \
    | sed -E 's/^TUNE ([^ ]*) .*gstencil_s=([0-9.]*).*/\2 \1/' | sort -rn | head -4 \
    | sed "s|^|BEST $name |" | tee -a "$log"
done
echo "== $(grep -c '^CHECK' "$log") check failures"
