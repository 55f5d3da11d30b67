#!/usr/bin/env bash
# Sets up and builds (scripts/setup.sh), then runs the whole test suite:
# lit + FileCheck tests, GoogleTest unit tests, CPU execution tests checked
# against utils/stencil-ref.py. Exits non-zero if any test fails.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
cmake --build "$build" --target check-stencil
