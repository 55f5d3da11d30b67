#!/usr/bin/env bash
# The SHA-256 of every PTX file and launch description the bench scripts
# compile, for a change that must not change the generated code (a
# refactoring): run it before and after and compare the two lists.
#   utils/kernel-digests.sh OUT_FILE [RUN...]
# A RUN is a bench script and its arguments, `@` standing for the folder it
# writes (default: every compile script of bench/ and the compile mode of
# its check scripts, on the chips bench/NOTES.md runs them for; see RUNS
# below). OUT_FILE gets one line per file, sorted: "<sha256>  <RUN>/<path>".
# Uses BUILD_DIR (default build/), as the bench scripts do; RUNS runs at a
# time: JOBS (default 2). test/utils/kernel-digests.test compares a sample
# with the list in test/utils/Inputs/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: kernel-digests.sh OUT_FILE [RUN...]}
shift
RUNS=(
  "compile-pipelines.sh @"
  "compile-fused.sh @ sm_90a"
  "compile-rowstream.sh @"
  "compile-sptc-layouts.sh @"
  "compile-sptc-stream.sh @"
  "compile-repack.sh @"
  "compile-fft.sh @"
  "compile-examples.sh @ lower-to-sptc sm_90a"
  "compile-apps.sh @"
  "compile-multigpu.sh @"
  "check-3d.sh compile @"
  "check-tails.sh compile @ sm_90a"
  "check-plane-groups.sh compile @"
)
(($# == 0)) || RUNS=("$@")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

one() { # index run
  local dir=$work/$1 args
  mkdir -p "$dir/out"
  args=${2//@/$dir/out}
  # shellcheck disable=SC2086
  if ! (cd "$root" && bash "bench/"$args > "$dir/log" 2>&1); then
    echo "kernel-digests: bench/$2 failed:" >&2
    tail -5 "$dir/log" >&2
    return 1
  fi
  (cd "$dir/out" && find . -type f \( -name '*.ptx' -o -name '*.launch' \) \
     -print0 | sort -z | xargs -0 -r sha256sum) \
    | sed "s|  \./|  $2/|" > "$dir/digests"
}
status=0
for i in "${!RUNS[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "${JOBS:-2}" ]; do wait -n || status=1; done
  one "$i" "${RUNS[$i]}" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || status=1; done
((status == 0)) || exit 1
cat "$work"/*/digests | sort -k2 > "$out"
echo "kernel-digests: $(wc -l < "$out") files from ${#RUNS[@]} runs in $out"
