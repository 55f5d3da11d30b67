#!/usr/bin/env bash
# Runs the fuzz targets for a given time, in the sanitizer build
# (clang-22, ASan + UBSan, libFuzzer; scripts/setup.sh --sanitize builds it).
#
#   scripts/fuzz.sh [--seconds N] [--max-len BYTES] [--merge] [TARGET ...]
#
# TARGET: parser, pipeline, run-readers (default: all three, run one after
# the other; start two scripts to use two cores). Each target starts from the
# kept corpus test/Fuzz/corpus/TARGET plus its working corpus in
# build-sanitize/fuzz/corpus/TARGET (kept between runs), with the MLIR
# dictionary test/Fuzz/mlir.dict for the MLIR targets, a per-input timeout
# (10 s; 30 s for the pipelines; a hang is a finding) and a 4 GiB memory
# limit. Crashes, timeouts,
# leaks and out-of-memory inputs land in build-sanitize/fuzz/artifacts/: each
# one becomes a lit test with a located diagnostic once fixed, and its input
# joins the kept corpus.
#
# --max-len: the longest input libFuzzer makes (8192; shorter runs faster).
#
# --merge: afterwards, add to the kept corpus the working-corpus inputs that
# reach new coverage (libFuzzer -merge=1), for CI's replay (test/Fuzz).
#
# Prints, per target, the executions and the findings, then exits non-zero
# if any target found anything.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build-sanitize}
seconds=600
maxlen=8192
merge=0
targets=()
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --max-len) maxlen=$2; shift 2 ;;
    --merge) merge=1; shift ;;
    parser|pipeline|run-readers) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
((${#targets[@]})) || targets=(parser pipeline run-readers)

BUILD_DIR=$build "$root/scripts/setup.sh" --sanitize >/dev/null
# allow_user_poisoning=0: see scripts/test.sh (LLVM's allocator poisoning in
# our objects against the uninstrumented libMLIR.so gives false reports).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}

status=0
for target in "${targets[@]}"; do
  binary="$build/bin/stencil-$target-fuzzer"
  kept="$root/test/Fuzz/corpus/$target"
  work="$build/fuzz/corpus/$target"
  artifacts="$build/fuzz/artifacts/$target"
  log="$build/fuzz/$target.log"
  mkdir -p "$work" "$artifacts"
  dict=()
  [ "$target" = run-readers ] || dict=(-dict="$root/test/Fuzz/mlir.dict")
  # A hang is an input past the timeout. The pipeline target's whole-pipeline
  # inputs (1 in 16) run LLVM's NVPTX back end under ASan: up to about 10 s
  # for a radius-7 box, so it gets 30 s.
  timeout=10
  [ "$target" = pipeline ] && timeout=30
  echo "== fuzzing $target for $seconds s (log: $log)"
  set +e
  "$binary" "$work" "$kept" "${dict[@]}" -max_total_time="$seconds" \
    -timeout="$timeout" -rss_limit_mb=4096 -malloc_limit_mb=4096 -max_len="$maxlen" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  # slow-unit-* files are libFuzzer's notes on slow inputs, not findings.
  found=$(find "$artifacts" -type f ! -name 'slow-unit-*' | wc -l)
  echo "$target: ${execs:-?} executions, $found findings, exit $rc"
  grep -m1 '^stencil-pipeline-fuzzer:' "$log" || true
  if ((rc != 0 || found != 0)); then
    status=1
    grep -m5 -E 'ERROR|SUMMARY|stencil fuzz target' "$log" || true
  fi
  if ((merge)); then
    "$binary" -merge=1 "$kept" "$work" "${dict[@]}" -timeout=10 \
      -rss_limit_mb=4096 >"$build/fuzz/$target.merge.log" 2>&1
    echo "$target: kept corpus now $(ls "$kept" | wc -l) inputs"
  fi
done
exit $status
