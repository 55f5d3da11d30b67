# The options scripts/setup.sh and scripts/test.sh share (sourced, not run):
# --sanitize, --subset (with --sanitize only), and the build directory they
# choose: $BUILD_DIR, else <repo>/build, <repo>/build-sanitize or
# <repo>/build-sanitize-subset. Sets $sanitize, $subset and $build; an
# unknown option or --subset alone exits 2, naming the calling script.
#   parse_build_options ROOT "$@"
parse_build_options() {
  local root=$1 arg me
  me=$(basename "$0")
  shift
  sanitize=0
  subset=0
  for arg in "$@"; do
    case "$arg" in
      --sanitize) sanitize=1 ;;
      --subset) subset=1 ;;
      *) echo "$me: unknown option '$arg'" >&2; exit 2 ;;
    esac
  done
  if ((subset && !sanitize)); then
    echo "$me: --subset is an option of the sanitizer build (--sanitize)" >&2
    exit 2
  fi
  if ((subset)); then
    build=${BUILD_DIR:-$root/build-sanitize-subset}
  elif ((sanitize)); then
    build=${BUILD_DIR:-$root/build-sanitize}
  else
    build=${BUILD_DIR:-$root/build}
  fi
}
