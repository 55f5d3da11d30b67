#!/usr/bin/env bash
# On the GPU machine: times every launch description in a folder (a tiling
# sweep made with stencil-opt --lower-to-sptc="warps=W n-tiles=N") on one
# grid, with a short correctness check each.
#   bench/sweep-sptc.sh STENCIL_RUN DIR GRID STEPS
set -uo pipefail
run=${1:?}; dir=${2:?}; grid=${3:?}; steps=${4:?}
for desc in "$dir"/*.launch; do
  "$run" "$desc" --grid "$grid" --steps "$steps" --check-steps 2 2>&1 \
    | grep -E '^RESULT|FAIL|error' | sed "s|^|$(basename "$desc" .launch): |"
done
