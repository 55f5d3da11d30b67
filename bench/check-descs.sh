#!/usr/bin/env bash
# On the GPU machine: check_folders (bench/common.sh) over folders from
# any artifact directories, paths from the repository root: each launch
# description at the full and the odd size against stencil-run's f64
# reference, $CHECK_JOBS folders at a time (default 12), each run under
# $CHECK_TIMEOUT seconds (default 120), each check's line in
# $OUT/check-descs.txt as it ends:
#   bench/check-descs.sh FOLDER...
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
source "$root/bench/common.sh"
out=${OUT:-/tmp/check-descs-out}
mkdir -p "$out"
log=$out/check-descs.txt
build_runner "$out"
begin_log
CHECK_JOBS=${CHECK_JOBS:-12} check_folders . "$@"
echo "== $(grep -c 'check=PASS' "$log") PASS, $(grep -v '^==' "$log" | grep -c -E 'FAIL|error') FAIL or error" | tee -a "$log"
