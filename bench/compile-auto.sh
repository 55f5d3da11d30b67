#!/usr/bin/env bash
# Compiles the --lower-to-auto benchmark (issue #15) into OUT_DIR:
#   bench/compile-auto.sh OUT_DIR [CHIP (sm_90)] [PROFILE (h100)]
# The cases are bench/auto_cases.py's (OUT_DIR/src, OUT_DIR/cases.txt). Per
# case NAME:
#   OUT_DIR/explain/NAME.txt   the --stencil-select-pipeline explain=true
#                              remark for PROFILE: the ranked candidates with
#                              their predictions, and the choice
#   OUT_DIR/k/NAME/SLUG.{ptx,launch,pipeline,ptxas}
#                              every candidate the ranking kept, compiled
#                              through its own pipeline (SLUG: sptc, tc,
#                              tc-lowrank, fft-fN, cuda-core-fN,
#                              cuda-core-sums-f1, cuda-core-vsums-wW-f1:
#                              vector columns of W); .ptxas is
#                              `ptxas -v`'s report (registers, shared memory)
#                              when PTXAS (default: ptxas on PATH or in
#                              /usr/local/cuda/bin) is there
#   OUT_DIR/k/NAME/auto.txt    the SLUG --lower-to-auto chose; its PTX is
#                              checked to be byte-identical to that
#                              candidate's, so the candidate's timing is
#                              auto's
# Run the result with bench/run-auto.sh on the GPU machine, then
# bench/calibrate.py. Re-rank for another profile (e.g. the one the run
# measured) or new constants with EXPLAIN_ONLY=1, which also rewrites
# auto.txt with the new choice.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-auto.sh OUT_DIR [CHIP] [PROFILE]}
chip=${2:-sm_90}
profile=${3:-h100}
jobs=${JOBS:-2}
ptxas=${PTXAS:-$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}
mkdir -p "$out/src" "$out/explain" "$out/k"
python3 "$root/bench/auto_cases.py" "$out/src" > "$out/cases.txt"

slug() { # candidate text -> folder name
  local family
  case $1 in
    lower-to-sptc*) family=sptc ;;
    lower-to-tc*low-rank=true*) family=tc-lowrank ;;
    lower-to-tc*) family=tc ;;
    lower-to-fft*) family=fft ;;
    lower-to-cuda-core*vector-width=*)
      [[ $1 =~ vector-width=([0-9]+) ]]
      family=cuda-core-vsums-w${BASH_REMATCH[1]} ;;
    lower-to-cuda-core*plane-sums=true*) family=cuda-core-sums ;;
    lower-to-cuda-core*) family=cuda-core ;;
  esac
  if [[ $1 =~ fused-steps=([0-9]+) ]]; then
    family="$family-f${BASH_REMATCH[1]}"
  fi
  echo "$family"
}

one_case() { # NAME
  local name=$1 src=$out/src/$1.mlir dir=$out/k/$1 tmp grid
  tmp=$(mktemp -d)
  # The grid run-auto.sh times (the model's nominal one): vector columns are
  # offered only for a known grid.
  case $(grep -o -m1 'memref<[?x]*' "$src" | tr -cd '?' | wc -c) in
    1) grid=10240000 ;;
    2) grid=10240,10240 ;;
    *) grid=512,512,512 ;;
  esac
  "$build/bin/stencil-opt" "$src" \
    --stencil-select-pipeline="chip=$chip device-profile=$profile grid=$grid explain=true" \
    -o /dev/null 2> "$out/explain/$name.txt" ||
    { echo "$name: selection failed"; cat "$out/explain/$name.txt"; return; }
  if [ -n "${EXPLAIN_ONLY:-}" ]; then
    # The new choice becomes auto.txt (no PTX comparison: re-ranking only).
    local c
    c=$(slug "$(sed -n 's/^chosen: //p' "$out/explain/$name.txt")")
    [ -f "$dir/$c.ptx" ] && echo "$c" > "$dir/auto.txt"
    rm -rf "$tmp"; echo "$name: ranked, auto: $c"; return
  fi
  mkdir -p "$dir"
  local candidate s n=0
  while read -r candidate; do
    s=$(slug "$candidate")
    if "$build/bin/stencil-opt" "$src" \
        --pass-pipeline="builtin.module($candidate)" -o "$tmp/$s.mlir" \
        2> "$tmp/$s.err"; then
      "$build/bin/stencil-translate" --to-ptx "$tmp/$s.mlir" -o "$dir/$s.ptx"
      "$build/bin/stencil-translate" --to-launch "$tmp/$s.mlir" \
        --ptx-file "$s.ptx" -o "$dir/$s.launch"
      echo "$candidate" > "$dir/$s.pipeline"
      if [ -x "$ptxas" ]; then
        "$ptxas" -arch="$chip" -v "$dir/$s.ptx" -o /dev/null 2> "$dir/$s.ptxas"
      fi
      n=$((n + 1))
    else
      echo "$name: $candidate failed: $(grep -m1 error "$tmp/$s.err")"
    fi
  done < <(sed -n 's/^  [0-9][0-9]* *\(lower-to-[^ ]*\( [^ ]*=[^ ]*\)*\) .*/\1/p' \
             "$out/explain/$name.txt" | sed 's/ *$//')
  # --lower-to-auto's kernel is the chosen candidate's.
  local chosen
  chosen=$(slug "$(sed -n 's/^chosen: //p' "$out/explain/$name.txt")")
  "$build/bin/stencil-opt" "$src" \
    --lower-to-auto="chip=$chip device-profile=$profile grid=$grid" -o "$tmp/auto.mlir"
  "$build/bin/stencil-translate" --to-ptx "$tmp/auto.mlir" -o "$tmp/auto.ptx"
  if cmp -s "$tmp/auto.ptx" "$dir/$chosen.ptx"; then
    echo "$chosen" > "$dir/auto.txt"
  else
    echo "$name: --lower-to-auto's PTX differs from $chosen's"
  fi
  echo "$name: $n candidates, auto: $chosen"
  rm -rf "$tmp"
}
export -f one_case slug
export out build chip profile ptxas
cut -d" " -f1 "$out/cases.txt" | grep -E -e "${CASES:-.}" | xargs -P "$jobs" -I{} bash -c 'one_case {}'
