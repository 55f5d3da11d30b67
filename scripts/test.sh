#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the whole test suite:
# lit + FileCheck tests, GoogleTest unit tests, CPU execution tests checked
# against utils/stencil-ref.py, ptxas on the GPU pipelines' PTX, and the
# embedding test, the fuzz corpus replay. Ends with one "N passed, N failed"
# line; exits non-zero if any test fails.
#   --sanitize  the same suite in the ASan + UBSan build (build-sanitize/,
#               clang-22; see scripts/setup.sh): any sanitizer report fails
#               the test that triggered it
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
if [ "${1:-}" = --sanitize ]; then
  build=${BUILD_DIR:-$root/build-sanitize}
  # Leaks are reported too; halt on the first error of any kind.
  # allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in code
  # inlined into our instrumented objects, but libMLIR.so (Debian's, not
  # instrumented) allocates from the same slabs without unpoisoning, so every
  # MLIR tool would report false use-after-poison errors. Real heap errors
  # (overflow, use after free, leaks) are still caught.
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=1:allow_user_poisoning=0}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
fi
BUILD_DIR=$build "$root/scripts/setup.sh" "$@"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
cmake --build "$build" --target check-stencil 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$log" | tail -1)
echo "${passed:-0} passed, ${failed:-0} failed"
exit "$rc"
