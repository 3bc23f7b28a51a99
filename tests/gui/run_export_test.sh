#!/usr/bin/env bash
# An export test: warpviz writes a video under Xvfb (or an SVG without one),
# then the file is read back and checked.
#
#   run_export_test.sh WARPVIZ OUTDIR mp4 STEPS FPS WxH [WARPVIZ ARGS...]
#       ffprobe counts the frames (STEPS x FPS, one second a step) and reads
#       the size; STEPS is what the run's steps are, counted by the caller.
#   run_export_test.sh WARPVIZ OUTDIR svg [WARPVIZ ARGS...]
#       the SVG parses as XML and holds 32 lane numbers and 32 values in each
#       of the in and out rows as <text>.
#   run_export_test.sh WARPVIZ OUTDIR gif [WARPVIZ ARGS...]
#       ffprobe says codec gif, and the file has the GIF89a header and trailer.
#
# Without ffmpeg/ffprobe the test is skipped (exit 77) and says what to
# install; without xvfb-run it fails, as the other GUI tests do.
set -euo pipefail
app=$1 outdir=$2 kind=$3
shift 3

if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "FAIL: xvfb-run not found; install it with scripts/install-deps.sh (Debian package xvfb)." >&2
  exit 1
fi
for tool in ffmpeg ffprobe; do
  [ "$kind" = svg ] && break
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool not found; video export needs it (apt install ffmpeg, or scripts/install-deps.sh)."
    exit 77
  fi
done
mkdir -p "$outdir"

run() {  # run OUT ARGS...: warpviz --export OUT under a fresh X server
  local out=$1
  shift
  rm -f "$out"
  echo "+ xvfb-run warpviz --export $out $*"
  LIBGL_ALWAYS_SOFTWARE=1 timeout 300 xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --export "$out" "$@"
  [ -s "$out" ] || { echo "FAIL: $out was not written" >&2; exit 1; }
}

case $kind in
  mp4)
    steps=$1 fps=$2 size=$3
    shift 3
    out=$outdir/export.mp4
    run "$out" --fps "$fps" --size "$size" "$@"
    probe=$(ffprobe -v error -count_frames -select_streams v:0 \
      -show_entries stream=codec_name,width,height,nb_read_frames -of csv=p=0 "$out")
    echo "ffprobe: $probe"
    want="h264,${size%x*},${size#*x},$((steps * fps))"
    if [ "$probe" != "$want" ]; then
      echo "FAIL: expected codec,width,height,frames $want ($steps steps x $fps fps), ffprobe read $probe" >&2
      exit 1
    fi
    ;;
  gif)
    out=$outdir/export.gif
    run "$out" "$@"
    codec=$(ffprobe -v error -select_streams v:0 -show_entries stream=codec_name -of csv=p=0 "$out")
    header=$(head -c 6 "$out")
    trailer=$(tail -c 1 "$out" | od -An -tx1 | tr -d ' \n')
    echo "ffprobe codec: $codec, header: $header, last byte: $trailer"
    if [ "$codec" != gif ] || [ "$header" != GIF89a ] || [ "$trailer" != 3b ]; then
      echo "FAIL: $out is not a valid GIF (want codec gif, header GIF89a, trailer 0x3b)" >&2
      exit 1
    fi
    ;;
  svg)
    out=$outdir/export.svg
    run "$out" "$@"
    python3 - "$out" <<'PY'
import collections, sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
assert doc.documentElement.tagName == "svg", doc.documentElement.tagName
count = collections.Counter(t.getAttribute("class") for t in doc.getElementsByTagName("text")
                            if t.firstChild is not None and t.firstChild.data.strip())
print("texts by class:", dict(count))
for role in ("lane-number", "value-in", "value-out"):
    assert count[role] == 32, f"FAIL: {count[role]} <text class={role}>, want 32"
assert not doc.getElementsByTagName("image"), "FAIL: an embedded bitmap"
PY
    ;;
  *) echo "unknown kind $kind" >&2; exit 2 ;;
esac
echo "PASS"
