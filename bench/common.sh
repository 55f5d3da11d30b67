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
