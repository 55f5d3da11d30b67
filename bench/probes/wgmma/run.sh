#!/bin/sh
# The wgmma.sp model against an sm_90a GPU. Here (with g++ and the sources):
#   bench/probes/wgmma/run.sh gen      writes bench/probes/wgmma/cases.bin
# On the GPU machine (nvcc):
#   bench/probes/wgmma/run.sh probe    builds probe.cu, runs the cases
set -e
dir=$(dirname "$0")
case "$1" in
gen)
  g++ -O1 -std=c++17 -DLLVM_DISABLE_ABI_BREAKING_CHECKS_ENFORCING=1 \
    -I "$dir/../../../include" -I /usr/lib/llvm-22/include "$dir/gen.cpp" \
    "$dir/../../../lib/Support/MmaSpModel.cpp" \
    "$dir/../../../lib/Support/WgmmaSpModel.cpp" -o "${TMPDIR:-/tmp}/wgmma-gen"
  "${TMPDIR:-/tmp}/wgmma-gen" "$dir/cases.bin" ;;
probe)
  nvcc -gencode arch=compute_90a,code=sm_90a -o "${TMPDIR:-/tmp}/wgmma-probe" \
    "$dir/probe.cu"
  "${TMPDIR:-/tmp}/wgmma-probe" "$dir/cases.bin" ;;
*) echo "usage: $0 gen|probe" >&2; exit 2 ;;
esac
