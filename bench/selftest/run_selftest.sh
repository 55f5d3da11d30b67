#!/usr/bin/env bash
# Self-test of stencil-run on a GPU machine, without the compiler: a
# hand-written CUDA kernel with the compiler's ABI, compiled to PTX by nvcc.
#   bench/selftest/run_selftest.sh [path/to/stencil-run]
# Expects: PASS (exit 0) on box2d9p_ref.launch, FAIL (exit 1) on
# box2d9p_ref_wrong.launch, exit 2 on a bad kernel name.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
run="${1:-stencil-run}"
nvcc="${NVCC:-nvcc}"
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
"$nvcc" -arch=sm_80 -ptx -o "$here/box2d9p_ref.ptx" "$here/box2d9p_ref.cu" || exit 2
status=0
expect() { # expected-exit args...
  local want=$1; shift
  echo "== $run $*"
  "$run" "$@"; local rc=$?
  if [ "$rc" -ne "$want" ]; then echo "SELFTEST: expected exit $want, got $rc"; status=1; fi
}
tmp="${TMPDIR:-/tmp}/stencil-run-selftest.$$"
mkdir -p "$tmp"
expect 0 "$here/box2d9p_ref.launch" --grid 4096,4096 --steps 10 --save-input "$tmp/in.npy" --save-output "$tmp/out10.npy"
expect 0 "$here/box2d9p_ref.launch" --grid 1000,777 --steps 50 --seed 7
expect 0 "$here/box2d9p_ref.launch" --grid 4096,4096 --steps 10 --input "$tmp/in.npy"
expect 0 "$here/box2d9p_ref.launch" --grid 8192,8192 --steps 100 --check-limit 1e9 --check-steps 3
expect 1 "$here/box2d9p_ref_wrong.launch" --grid 512,512 --steps 4
sed 's/^kernel = .*/kernel = no_such_kernel/' "$here/box2d9p_ref.launch" > "$tmp/bad.launch"
cp "$here/box2d9p_ref.ptx" "$tmp/"
expect 2 "$tmp/bad.launch" --grid 64,64
rm -rf "$tmp"
[ $status -eq 0 ] && echo "SELFTEST OK" || echo "SELFTEST FAILED"
exit $status
