#!/usr/bin/env bash
# Compiles the FFT pipeline's kernels for bench/check-fft.sh and
# bench/bench-fft.sh into OUT_DIR:
#   bench/compile-fft.sh OUT_DIR [CHIP (sm_90)]
# OUT_DIR/check/<example>-<boundary>-<T>.launch: the f64 variant of every
#   linear example with `steps T` and boundary halo, periodic, dirichlet(0.5),
#   T in 1, 4, 16 (the tailoring's tile; combinations with no tile are listed
#   with the compiler's diagnostic);
# OUT_DIR/perf/fft-<stencil>-T<T>[-pfa].launch: the five benchmark stencils
#   at several T, with the default tailoring (Cooley-Tukey tiles in 1-D and
#   2-D) and, suffix -pfa, with cooley-tukey=false.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
out=${1:?usage: compile-fft.sh OUT_DIR [CHIP]}
chip=${2:-sm_90}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/check" "$out/perf"

source "$root/bench/common.sh"
compile() { # source folder name [pipeline options]
  compile_example lower-to-fft "$1" "$3" "$2" "$4"
}

variant() { # example steps boundary -> path of the f64 source
  local src=$tmp/$1-$2-${3%%(*}.src.mlir
  sed -e 's/f16/f64/g' \
      -e "s/\] : memref/] steps $2 boundary $3 : memref/" \
      "$root/examples/$1.mlir" > "$src"
  grep -q "steps $2 boundary" "$src" || { echo "cannot vary $1" >&2; exit 1; }
  echo "$src"
}

linear="1d5p 1d7p box-2d225p box-2d25p box-2d49p box-2d9p box-3d27p heat-1d
        heat-2d heat-3d irregular-2d star-2d13p"
for name in $linear; do
  for boundary in halo periodic 'dirichlet(0.5)'; do
    for t in 1 4 16; do
      compile "$(variant "$name" "$t" "$boundary")" check \
        "$name-${boundary%%(*}-$t" "fused-steps=$t"
    done
  done
done

perf() { # example steps...
  local name=$1 t
  shift
  for t in "$@"; do
    src=$(variant "$name" "$t" halo)
    compile "$src" perf "fft-$name-T$t" "fused-steps=$t"
    compile "$src" perf "fft-$name-T$t-pfa" \
      "fused-steps=$t cooley-tukey=false"
  done
}
perf heat-1d 4 16 32 64
perf heat-2d 4 8 10 12 16
perf box-2d9p 4 8 10 12 16
perf box-2d49p 2 3 4 6
perf heat-3d 1 2
