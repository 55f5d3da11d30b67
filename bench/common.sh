# Shared by the GPU scripts of bench/ (sourced, not run).

# Builds tools/stencil-run into /tmp/build-run (log in $1/build.txt) and sets
# $run to it; exits 2 with the log when the build fails.
build_runner() {
  cmake -S "$root/tools/stencil-run" -B /tmp/build-run -DCMAKE_BUILD_TYPE=Release \
    > "$1/build.txt" 2>&1 && cmake --build /tmp/build-run -j 16 >> "$1/build.txt" 2>&1 \
    || { cat "$1/build.txt"; exit 2; }
  run=/tmp/build-run/stencil-run
}

# The grid of a check or benchmark: grid_for RANK full|odd|seed (outermost
# first, as stencil-run --grid takes it). full and odd are the sizes of the
# correctness checks, seed the seeds' benchmark sizes.
grid_for() {
  case "$1:$2" in
    1:full) echo 16777216 ;; 1:odd) echo 16777259 ;; 1:seed) echo 10240000 ;;
    2:full) echo 4096,4096 ;; 2:odd) echo 4099,2053 ;; 2:seed) echo 10240,10240 ;;
    3:full) echo 256,256,256 ;; 3:odd) echo 257,251,263 ;; 3:seed) echo 768,768,768 ;;
  esac
}

# The time steps one launch of DESC computes (its steps_per_launch, 1 when
# absent): steps_per_launch DESC.
steps_per_launch() {
  local n
  n=$(sed -n 's/^steps_per_launch = //p' "$1")
  echo "${n:-1}"
}

# The steps of a correctness check of DESC: 3, or two launches of a kernel
# fusing F > 1 steps (2 F): check_steps DESC.
check_steps() {
  local fused
  fused=$(steps_per_launch "$1")
  if [ "$fused" -gt 1 ]; then echo $((2 * fused)); else echo 3; fi
}

# Starts the log $log of a GPU script: empties it, writes the device into it
# and starts the clock of `elapsed`.
begin_log() {
  : > "$log"
  echo "== device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)" | tee -a "$log"
  start=$(date +%s)
}

# Seconds since begin_log, printed after each section so that a run cut at
# the device tool's limit shows where the time went.
elapsed() { echo "== $1: $(( $(date +%s) - start )) s" | tee -a "$log"; }

# The compile mode of a compile|run script: the compiler's build
# ($BUILD_DIR, default build/), the chip (CHIP, default sm_90) and a
# scratch folder $tmp removed on exit:
#   begin_compile [CHIP]
begin_compile() {
  build=${BUILD_DIR:-$root/build}
  chip=${1:-sm_90}
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

# Writes EXAMPLE with its element type f16 replaced by TYPE and, when given,
# `boundary BOUNDARY` before its memref type to $tmp/NAME.src.mlir, and
# prints that path. The suffix keeps the source apart from compile_example's
# output $tmp/NAME.mlir (stencil-opt reading and writing one file ends in a
# bus error):
#   variant_source EXAMPLE NAME TYPE [BOUNDARY]
variant_source() {
  local src=$tmp/$2.src.mlir
  if [ -n "${4:-}" ]; then
    sed -e "s/f16/$3/g" -e "s/\] : memref/] boundary $4 : memref/" "$1" > "$src"
  else
    sed "s/f16/$3/g" "$1" > "$src"
  fi
  echo "$src"
}

# Compiles SOURCE through --PIPELINE="chip=$chip OPTIONS" into
# $out/FOLDER/NAME.{ptx,launch} (FOLDER defaults to PIPELINE without
# lower-to-), or reports it skipped with the compiler's first error; uses
# $build, $out, $chip and the scratch folder $tmp of the calling script:
#   compile_example PIPELINE SOURCE NAME [FOLDER [OPTIONS]]
compile_example() {
  local dir=$out/${4:-${1#lower-to-}} what="$1${5:+ ($5)}"
  mkdir -p "$dir"
  if ! "$build/bin/stencil-opt" "$2" --"$1"="chip=$chip${5:+ $5}" \
      -o "$tmp/$3.mlir" 2> "$tmp/$3.err"; then
    echo "$what: skipped $3: $(grep -m1 error "$tmp/$3.err")"
    return
  fi
  "$build/bin/stencil-translate" --to-ptx "$tmp/$3.mlir" -o "$dir/$3.ptx"
  "$build/bin/stencil-translate" --to-launch "$tmp/$3.mlir" \
    --ptx-file "$3.ptx" -o "$dir/$3.launch"
  echo "$what: compiled $3"
}

# Checks every description of ART_DIR/FOLDER at the full and the odd size
# (grid_for) against the runner's f64 reference: 3 steps, or two launches
# of a kernel fusing F > 1 steps. Each check's RESULT, FAIL or error lines
# reach $log (and standard output) when it ends, so a call cut by its time
# limit keeps what it did. Each run is limited to $CHECK_TIMEOUT seconds
# (default 120); one that prints nothing in that time is a FAIL line. An
# `elapsed` line ends the checks. The folders run $CHECK_JOBS at a time
# (default: half the cores; the runner's f64 reference is single-threaded
# CPU work, the kernels are short):
#   check_folders ART_DIR FOLDER...
check_folders() {
  local art=$1 folder jobs=${CHECK_JOBS:-$(( ($(nproc) + 1) / 2 ))}
  shift
  for folder in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    check_one_folder "$art" "$folder" &
  done
  wait
  elapsed "checks of $# folders"
}

# The checks of one folder for check_folders, appended to $log one check at
# a time.
check_one_folder() {
  local art=$1 folder=$2 desc rank steps size prefix lines
  for desc in "$art/$folder"/*.launch; do
    [ -f "$desc" ] || continue
    rank=$(sed -n 's/^rank = //p' "$desc")
    steps=$(check_steps "$desc")
    for size in full odd; do
      prefix="$folder $(basename "$desc" .launch) $size: "
      lines=$(timeout "${CHECK_TIMEOUT:-120}" "$run" "$desc" \
          --grid "$(grid_for "$rank" "$size")" --steps "$steps" 2>&1 \
        | grep -E '^RESULT|FAIL|^error')
      [ -n "$lines" ] || lines="FAIL: no result within ${CHECK_TIMEOUT:-120} s"
      sed "s|^|$prefix|" <<< "$lines" | tee -a "$log"
    done
  done
}
