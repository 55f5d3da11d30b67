#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the whole test suite:
# lit + FileCheck tests, GoogleTest unit tests, CPU execution tests checked
# against utils/stencil-ref.py, ptxas on the GPU pipelines' PTX, and the
# embedding test. Ends with one "N passed, N failed" line; exits non-zero if
# any test fails.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"

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
