#!/usr/bin/env bash
# The tiling sweep of the CUDA-core kernels (issue 17):
#   bench/tune-stream.sh compile OUT_DIR [CHIP (sm_90)]   (here)
#   bench/tune-stream.sh run OUT_DIR                      (GPU machine)
# compile writes OUT_DIR/<variant>/<example>.{ptx,launch} for Heat-3D and
# Box-3D27P in f16 and f64, streamed, variant = t<steps>-ty<threads-y>-
# o<outputs per thread>-p<planes>; with SWEEP=2d instead for the f64
# variants of LoRAStencil's 2-D shapes (Box-2D9P, Heat-2D, Box-2D49P,
# Star-2D13P), variant = t<steps>-ty<threads-y>-o<outputs per thread>, the
# block's tile kept at 32 rows; with SWEEP=planes the one-step streamed
# kernels of Heat-3D and Box-3D27P (f16, f64) with and without partial sums
# of the planes, variant = ty<threads-y>-o<outputs>-p<planes>-{sums,ring}
# (plane-sums=true/false), and the f32 variants with the periodic and
# Dirichlet boundaries (bnd-<boundary>-{sums,ring}); with SWEEP=builds
# the one-step streamed 3-D kernels (and two fused ones) twice, by
# $BUILD_DIR (variant <tiling>-new) and by the build in $BUILD_B
# (<tiling>-old), for TWINS=new:old at run time; with SWEEP=f16 the f16
# Heat-3D and Box-3D27P one-step streamed kernels over more tilings, ring
# and plane sums (<tiling>-{ring,sums}), and SpTC's (sptc); with
# SWEEP=prefetch the one-step streamed kernels (f16 ring and plane sums,
# f64 ring) with prefetch-distance d = 1, 2, 3 (<tiling>-<kind>-d<d>; the
# plane sums also without prefetch, -nopf; run with TWINS=d2:d1); with
# SWEEP=vector f16 Box-3D27P's and Heat-3D's vector plane sums over block
# shapes (threads-x too); with SWEEP=sums3d the 3-D stencils of bench/auto_cases.py (f16: SpTC, ring and
# plane sums at five tilings; f64: three), <tiling>-{ring,sums}. run times the
# roofline (stencil-run --roofline: the bound of the run), checks every
# variant at the odd size of its rank and times it (f16 3-D at 768^3, 200 steps; f64 3-D at 512^3 and
# 2-D at 10240^2, 1000 steps or the nearest multiple of the fused steps),
# RESULT lines in $OUT/tune.txt, sorted by GStencil/s at the end.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:?usage: tune-stream.sh compile|run OUT_DIR [CHIP]}
out=${2:?usage: tune-stream.sh compile|run OUT_DIR [CHIP]}
source "$root/bench/common.sh"

# A streamed tiling TY:O:P:KIND (KIND ring or sums) as the variant name v
# (ty<TY>-o<O>-p<P>-<KIND>) and the options opts:
#   streamed_tiling TY:O:P:KIND
streamed_tiling() {
  local ty o p kind sums=true
  IFS=: read -r ty o p kind <<< "$1"
  [ "$kind" = sums ] || sums=false
  v=ty$ty-o$o-p$p-$kind
  opts="stream=on threads-y=$ty outputs-per-thread=$o planes=$p plane-sums=$sums"
}

if [ "$mode" = compile ]; then
  begin_compile "${3:-}"
  if [ "${SWEEP:-3d}" = 2d ]; then
    for name in box-2d9p heat-2d box-2d49p star-2d13p; do
      variant_source "$root/examples/$name.mlir" "$name-f64" f64 > /dev/null
      for t in 1 2 3 4; do
        for tyo in 8:4 4:8 2:16; do
          ty=${tyo%:*} o=${tyo#*:}
          compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" \
            "$name-f64" "t$t-ty$ty-o$o" \
            "fused-steps=$t threads-y=$ty outputs-per-thread=$o"
        done
      done
    done
    exit 0
  fi
  if [ "${SWEEP:-3d}" = f16 ]; then
    for name in heat-3d box-3d27p; do
      compile_example lower-to-sptc "$root/examples/$name.mlir" "$name" sptc ""
      for txtyo in 32:8:4:32 32:2:8:64 32:4:4:64 32:2:4:64 32:2:8:32 32:1:8:64 \
                   32:4:8:64 64:1:8:64 64:2:4:64 64:1:4:64; do
        IFS=: read -r tx ty o p <<< "$txtyo"
        for sums in false true; do
          kind=ring; [ "$sums" = false ] || kind=sums
          [ "$sums" = false ] || [ "$o" -le 4 ] || continue
          compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" \
            "tx$tx-ty$ty-o$o-p$p-$kind" \
            "stream=on threads-x=$tx threads-y=$ty outputs-per-thread=$o planes=$p plane-sums=$sums"
        done
      done
    done
    exit 0
  fi
  if [ "${SWEEP:-3d}" = sums3d ]; then
    python3 "$root/bench/auto_cases.py" "$tmp/cases" 1 > /dev/null
    for src in "$tmp"/cases/*3d*.mlir; do
      name=$(basename "$src" .mlir)
      # auto_cases.py's names end in the type; compile_example writes
      # $tmp/NAME.mlir, so the source moves out of the way first.
      mv "$src" "$tmp/$name.src.mlir"; src=$tmp/$name.src.mlir
      case $name in
        *-f16)
          compile_example lower-to-sptc "$src" "$name" sptc ""
          for tiling in 8:4:32:ring 2:8:64:ring 8:4:32:sums 4:4:64:sums 2:4:64:sums; do
            streamed_tiling "$tiling"
            compile_example lower-to-cuda-core "$src" "$name" "$v" "$opts"
          done ;;
        *)
          # The defaults (outputs per thread: the most that fit).
          compile_example lower-to-cuda-core "$src" "$name" def-ring "stream=on"
          compile_example lower-to-cuda-core "$src" "$name" def-sums "stream=on plane-sums=true"
          compile_example lower-to-cuda-core "$src" "$name" ty4-o4-p64-sums \
            "stream=on threads-y=4 outputs-per-thread=4 planes=64 plane-sums=true" ;;
      esac
    done
    exit 0
  fi
  if [ "${SWEEP:-3d}" = vector ]; then
    # f16 Box-3D27P's vector plane sums (W = 4) and Heat-3D's (W = 8) over
    # block shapes: tx<threads-x>-ty<threads-y>-o<outputs>-p<planes>-d<d>.
    for t in box-3d27p:4:32:4:2:64:3 box-3d27p:4:32:8:1:64:3 box-3d27p:4:32:8:2:64:2 \
             box-3d27p:4:32:8:2:64:3 box-3d27p:4:32:4:2:128:3 box-3d27p:4:32:4:2:32:3 \
             box-3d27p:4:64:1:2:64:3 box-3d27p:4:64:2:1:64:3 box-3d27p:4:64:2:2:64:2 \
             box-3d27p:4:64:2:2:64:3 box-3d27p:4:64:4:1:64:3 box-3d27p:4:64:4:2:64:2 \
             box-3d27p:4:64:4:2:64:3 box-3d27p:4:64:2:2:128:3 box-3d27p:4:64:1:4:64:2 \
             box-3d27p:4:16:8:2:64:3 box-3d27p:4:16:16:1:64:3 \
             heat-3d:8:32:2:2:64:1 heat-3d:8:64:1:2:64:1 heat-3d:8:64:2:2:64:1 \
             heat-3d:8:64:1:4:64:1 heat-3d:8:16:4:2:64:1; do
      IFS=: read -r name w tx ty o p d <<< "$t"
      compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" \
        "w$w-tx$tx-ty$ty-o$o-p$p-d$d" \
        "stream=on plane-sums=true vector-width=$w threads-x=$tx threads-y=$ty outputs-per-thread=$o planes=$p prefetch-distance=$d"
    done
    exit 0
  fi
  if [ "${SWEEP:-3d}" = prefetch ]; then
    for name in heat-3d box-3d27p; do
      variant_source "$root/examples/$name.mlir" "$name-f64" f64 > /dev/null
      for tiling in 2:8:64:ring 4:4:64:ring 8:4:32:ring 2:4:64:sums 4:4:64:sums; do
        streamed_tiling "$tiling"
        for d in 1 2 3; do
          compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" \
            "$v-d$d" "$opts prefetch-distance=$d"
        done
        [ "${tiling##*:}" = ring ] || compile_example lower-to-cuda-core \
          "$root/examples/$name.mlir" "$name" "$v-nopf" \
          "$opts prefetch-planes=false"
      done
      for d in 1 2 3; do
        compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" \
          "ty8-o4-p32-ring-d$d" "stream=on prefetch-distance=$d"
      done
      for d in 1 2; do
        compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" \
          "ty2-o8-p32-ring-d$d" "stream=on threads-y=2 outputs-per-thread=8 prefetch-distance=$d"
      done
    done
    exit 0
  fi
  if [ "${SWEEP:-3d}" = builds ]; then
    own=$build other=${BUILD_B:?SWEEP=builds needs BUILD_B, the build to compare with}
    for name in heat-3d box-3d27p; do
      variant_source "$root/examples/$name.mlir" "$name-f64" f64 > /dev/null
      for boundary in periodic 'dirichlet(0.5)'; do
        variant_source "$root/examples/$name.mlir" "$name-${boundary%%(*}" f32 \
          "$boundary" > /dev/null
      done
      for which in new old; do
        [ "$which" = new ] || build=$other
        for tyop in 8:4:32 2:8:64 4:4:64 2:4:64; do
          IFS=: read -r ty o p <<< "$tyop"
          opts="stream=on threads-y=$ty outputs-per-thread=$o planes=$p"
          compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" "ty$ty-o$o-p$p-$which" "$opts"
          compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" "ty$ty-o$o-p$p-$which" "$opts"
        done
        compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" "ty2-o8-p32-nopf-$which" \
          "stream=on threads-y=2 outputs-per-thread=8 prefetch-planes=false"
        compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" "t2-$which" "stream=on fused-steps=2"
        compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" "t2-ty4-o2-$which" \
          "stream=on fused-steps=2 threads-y=4 outputs-per-thread=2"
        for boundary in periodic dirichlet; do
          compile_example lower-to-cuda-core "$tmp/$name-$boundary.src.mlir" "$name-f32" "bnd-$boundary-$which" "stream=on"
        done
        build=$own
      done
    done
    exit 0
  fi
  if [ "${SWEEP:-3d}" = planes ]; then
    for name in heat-3d box-3d27p; do
      variant_source "$root/examples/$name.mlir" "$name-f64" f64 > /dev/null
      for sums in true false; do
        kind=sums; [ "$sums" = true ] || kind=ring
        for tyop in 8:4:32 2:8:64 4:4:64 2:4:64 4:8:64; do
          IFS=: read -r ty o p <<< "$tyop"
          v=ty$ty-o$o-p$p-$kind
          opts="stream=on threads-y=$ty outputs-per-thread=$o planes=$p plane-sums=$sums"
          compile_example lower-to-cuda-core "$root/examples/$name.mlir" "$name" "$v" "$opts"
          compile_example lower-to-cuda-core "$tmp/$name-f64.src.mlir" "$name-f64" "$v" "$opts"
        done
        for boundary in periodic 'dirichlet(0.5)'; do
          compile_example lower-to-cuda-core \
            "$(variant_source "$root/examples/$name.mlir" "$name-${boundary%%(*}" f32 "$boundary")" \
            "$name-f32" "bnd-${boundary%%(*}-$kind" "stream=on plane-sums=$sums"
        done
      done
    done
    exit 0
  fi
  for name in heat-3d box-3d27p; do
    variant_source "$root/examples/$name.mlir" "$name-f64" f64 > /dev/null
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
# Variants named *-A and *-B (TWINS=A:B, default sums:ring) are twins whose
# checked outputs must be equal bit for bit (after the timings).
twins=${TWINS:-sums:ring}
begin_log
"$run" --roofline 2>&1 | grep ROOFLINE | tee -a "$log"
for dir in "$out"/*/; do
  v=$(basename "$dir")
  for desc in "$dir"*.launch; do
    name=$(basename "$desc" .launch)
    fused=$(steps_per_launch "$desc")
    rank=$(sed -n 's/^rank = //p' "$desc")
    # A variant with a twin keeps its checked output.
    save=()
    case $v in
      *-"${twins%:*}"|*-"${twins#*:}")
        mkdir -p "$result/outputs/$v"
        save=(--save-output "$result/outputs/$v/$name.npy") ;;
    esac
    "$run" "$desc" --grid "$(grid_for "$rank" odd)" --steps $((2 * fused)) \
      "${save[@]}" 2>&1 \
      | grep -E 'FAIL|^error' | sed "s|^|CHECK $v $name: |" | tee -a "$log"
    case $rank:$name in
      2:*) grid=10240,10240; steps=1000 ;;
      3:*f64) grid=512,512,512; steps=1000 ;;
      *) grid=768,768,768; steps=200 ;;
    esac
    steps=$(( (steps / fused) * fused ))
    "$run" "$desc" --grid "$grid" --steps "$steps" --no-check 2>&1 \
      | grep -E '^RESULT|^error' | sed "s|^|TUNE $v $name: |" | tee -a "$log"
  done
done
elapsed "tune"
# SWEEP=planes: each plane-sums kernel against its ring twin, bit for bit
# (the same input, the check's steps; twins above).
for saved in "$result"/outputs/*-"${twins%:*}"/*.npy; do
  [ -f "$saved" ] || continue
  twin=${saved/-${twins%:*}\//-${twins#*:}/}
  [ -f "$twin" ] || continue
  if cmp -s "$saved" "$twin"; then word=yes; else word=NO; fi
  echo "BITWISE ${saved#$result/outputs/} = ${twin#$result/outputs/}: $word" | tee -a "$log"
done
rm -rf "$result/outputs"
echo "== fastest per example"
for name in $(ls "$out"/*/ | grep '\.launch$' | sed 's/\.launch$//' | sort -u); do
  grep "TUNE [^ ]* $name: RESULT" "$log" \
    | sed -E 's/^TUNE ([^ ]*) .*gstencil_s=([0-9.]*).*/\2 \1/' | sort -rn | head -4 \
    | sed "s|^|BEST $name |" | tee -a "$log"
done
echo "== $(grep -c '^CHECK' "$log") check failures, $(grep -c '^BITWISE.*NO$' "$log") bitwise differences"
