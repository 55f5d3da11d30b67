#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the whole test suite:
# lit + FileCheck tests, GoogleTest unit tests, CPU execution tests checked
# against utils/stencil-ref.py, ptxas on the GPU pipelines' PTX, and the
# embedding test, the fuzz corpus replay. Ends with one "N passed, N failed"
# line; exits non-zero if any test fails.
#   --sanitize  the same suite in the ASan + UBSan build (build-sanitize/,
#               clang-22; see scripts/setup.sh): any sanitizer report fails
#               the test that triggered it
#   --sanitize --subset
#               the covering subset CI runs, in a sanitizer build without
#               the fuzz targets (build-sanitize-subset/): every test but
#               those test/sanitizer-subset.txt leaves out, and why
#               (Sanitizer/subset-covers.test checks that what remains runs
#               every pass, pipeline and translation)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/scripts/build-options.sh"
parse_build_options "$root" "$@"
if ((subset)); then
  # lit leaves out the tests whose names match (one regex per line of the
  # list, comments and blank lines aside).
  LIT_FILTER_OUT=$(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' \
                   "$root/test/sanitizer-subset.txt" | paste -sd'|')
  export LIT_FILTER_OUT
  # The code it emits is compared with the plain build's (builds-agree.test,
  # which runs every example through every pipeline here).
  if [ -z "${REFERENCE_BUILD_DIR:-}" ]; then
    if [ ! -x "$root/build/bin/stencil-opt" ]; then
      echo "test.sh: the sanitizer subset compares the code it emits with" \
           "the plain build's: build that first (scripts/test.sh) or give" \
           "REFERENCE_BUILD_DIR=<a build directory>" >&2
      exit 2
    fi
    export REFERENCE_BUILD_DIR=$root/build
  fi
fi
if ((sanitize)); then
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
