#!/usr/bin/env bash
# An --offscreen test: warpviz renders through a headless EGL context with no
# display at all (DISPLAY and WAYLAND_DISPLAY unset, no Xvfb), then what it
# wrote is checked.
#
#   run_offscreen_test.sh screenshot WARPVIZ CHECKER OUT.png [WARPVIZ ARGS...] -- [CHECKER ARGS...]
#       check_screenshot asserts on the PNG's size and pixels.
#   run_offscreen_test.sh same-as-xvfb WARPVIZ CHECKER OUTDIR [WARPVIZ ARGS...]
#       the same --screenshot under Xvfb (a GLFW window, Mesa's GLX) and
#       --offscreen: the two frames may differ by rounding alone (at most 100
#       pixels off by more than 4 in a channel).
#   run_offscreen_test.sh bench WARPVIZ FRAMES WxH [WARPVIZ ARGS...]
#       --bench-frames FRAMES: the report names the size and the GL renderer
#       and gives a wall time per frame.
#   run_offscreen_test.sh mp4 WARPVIZ OUTDIR STEPS FPS WxH [WARPVIZ ARGS...]
#       --export OUT.mp4: ffprobe counts STEPS x FPS frames of WxH.
#
# Skipped (exit 77, with the reason) where the app was built without EGL, or
# where no EGL display can be had and no EGL vendor is installed. With Mesa's
# EGL installed (libegl-mesa0, which libegl-dev brings) a context must open:
# Mesa's surfaceless llvmpipe needs no GPU and no display.
set -euo pipefail
mode=$1 app=$2
shift 2

unset DISPLAY WAYLAND_DISPLAY

# run LOG ARGS...: warpviz --offscreen ARGS, its output in LOG; skips the test
# (exit 77) where there is no headless GL to be had here.
run() {
  local log=$1
  shift
  echo "+ env -u DISPLAY warpviz --offscreen $*"
  local rc=0
  timeout 300 "$app" --offscreen "$@" >"$log" 2>&1 || rc=$?
  cat "$log"
  [ "$rc" = 0 ] && return 0
  if grep -q "offscreen: not built in" "$log"; then
    echo "SKIP: this warpviz was built without EGL (libegl-dev), so --offscreen is not built in."
    exit 77
  fi
  if grep -q "no headless OpenGL 3.3 core context through EGL" "$log"; then
    # Where glvnd looks for EGL vendors (its own variable first).
    local vendors="" dir
    IFS=: read -ra dirs <<<"${__EGL_VENDOR_LIBRARY_DIRS:-/etc/glvnd/egl_vendor.d:/usr/share/glvnd/egl_vendor.d}"
    for dir in "${dirs[@]}"; do vendors+=$(ls "$dir"/*.json 2>/dev/null || true); done
    if [ -z "$vendors" ] && [ -z "${__EGL_VENDOR_LIBRARY_FILENAMES:-}" ]; then
      echo "SKIP: no EGL display can be had here (no EGL vendor installed: apt install libegl-mesa0)."
      exit 77
    fi
    echo "FAIL: EGL vendors are installed ($vendors) but no context opened; see the output above." >&2
    exit 1
  fi
  echo "FAIL: warpviz --offscreen exited with $rc" >&2
  exit 1
}

case $mode in
  screenshot)
    checker=$1 out=$2
    shift 2
    app_args=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do app_args+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    mkdir -p "$(dirname "$out")"
    rm -f "$out"
    run "${out%.png}.log" --screenshot "$out" "${app_args[@]}"
    [ -s "$out" ] || { echo "FAIL: no screenshot at $out" >&2; exit 1; }
    exec "$checker" "$out" "$@"
    ;;
  same-as-xvfb)
    checker=$1 outdir=$2
    shift 2
    if ! command -v xvfb-run >/dev/null 2>&1; then
      echo "FAIL: xvfb-run not found; install it with scripts/install-deps.sh (Debian package xvfb)." >&2
      exit 1
    fi
    mkdir -p "$outdir"
    rm -f "$outdir/xvfb.png" "$outdir/offscreen.png"
    # llvmpipe both times, also where a GPU would give EGL a hardware device.
    LIBGL_ALWAYS_SOFTWARE=1 WARPVIZ_EGL_PLATFORM=surfaceless run "$outdir/offscreen.log" --screenshot "$outdir/offscreen.png" "$@"
    echo "+ xvfb-run warpviz --screenshot $outdir/xvfb.png $*"
    LIBGL_ALWAYS_SOFTWARE=1 timeout 120 xvfb-run -a -s "-screen 0 1920x1080x24" \
      "$app" --screenshot "$outdir/xvfb.png" "$@" >"$outdir/xvfb.log" 2>&1 ||
      { cat "$outdir/xvfb.log"; echo "FAIL: warpviz under Xvfb failed" >&2; exit 1; }
    exec "$checker" "$outdir/offscreen.png" --expect-busy 0.2 --expect-same "$outdir/xvfb.png~4:100"
    ;;
  bench)
    frames=$1 size=$2
    shift 2
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    run "$log" --bench-frames "$frames" --size "$size" "$@"
    want="$frames frames at ${size%x*}×${size#*x}"
    grep -q "^$want, .*GL: ." "$log" || { echo "FAIL: no line '$want, ... GL: RENDERER' in the report" >&2; exit 1; }
    wall=$(sed -n 's/^ *wall time.*mean *\([0-9.]*\) ms.*/\1/p' "$log")
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "${wall:-0}" ||
      { echo "FAIL: no positive wall time per frame in the report" >&2; exit 1; }
    echo "PASS: $want, $wall ms wall per frame"
    ;;
  mp4)
    outdir=$1 steps=$2 fps=$3 size=$4
    shift 4
    for tool in ffmpeg ffprobe; do
      command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool not found (apt install ffmpeg)."; exit 77; }
    done
    mkdir -p "$outdir"
    out=$outdir/export.mp4
    rm -f "$out"
    run "$outdir/export.log" --export "$out" --fps "$fps" --size "$size" "$@"
    probe=$(ffprobe -v error -count_frames -select_streams v:0 \
      -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$out")
    want="h264,${size%x*},${size#*x},$((steps * fps))"
    [ "$probe" = "$want" ] || { echo "FAIL: ffprobe read $probe, expected $want" >&2; exit 1; }
    echo "PASS: ffprobe $probe"
    ;;
  *) echo "usage: $0 screenshot|same-as-xvfb|bench|mp4 WARPVIZ ..." >&2; exit 2 ;;
esac
