#!/usr/bin/env bash
# Frame-time and load-time figures for the desktop app (not a test: it prints
# numbers, it asserts nothing).
#
#   tests/gui/bench_frames.sh [BUILD_DIR]     (default: $WARPVIZ_BUILD_DIR or build)
#
# 1. warpviz --bench-frames 300 on the 32-lane view (warp_sum) and on a
#    256-thread block with the block view (reduce_sum, block 256): the CPU time
#    of a frame, animation running, every panel shown.
# 2. Start (exec) to first frame for a trace of about 1,000,000 lane records
#    (reduce_sum over 316 blocks of 256: 31,284 steps x 32 lanes) against a
#    one-warp trace's: the difference is what the size costs. Then 300 frames
#    on that big trace.
# Runs under one Xvfb server (software GL), started here when DISPLAY is unset.
set -euo pipefail
cd "$(dirname "$0")/../.."
build_dir=${1:-${WARPVIZ_BUILD_DIR:-build}}
app=$build_dir/app/warpviz
cli=$build_dir/cli/warpviz-cli
for bin in "$app" "$cli"; do
  if [ ! -x "$bin" ]; then
    echo "bench_frames: $bin not built (cmake --build $build_dir --target warpviz warpviz-cli)" >&2
    exit 2
  fi
done

if [ -z "${DISPLAY:-}" ]; then
  if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "bench_frames: no DISPLAY and no xvfb-run; install xvfb (scripts/install-deps.sh)" >&2
    exit 2
  fi
  exec xvfb-run -a -s "-screen 0 1920x1080x24" "$0" "$build_dir"
fi

size=1600x900
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "warpviz frame benchmarks ($size, $(nproc) cores, display $DISPLAY)"
echo
echo "== 300 frames, animation playing =="
printf '%-44s ' "32-lane view (warp_sum):"
"$app" --scenario warp_sum --size $size --bench-frames 300 | tail -n +2
printf '%-44s ' "block view, 256 threads (reduce_sum):"
"$app" --scenario reduce_sum --set n=1024 --set block=256 --size $size --bench-frames 300 | tail -n +2

# Milliseconds from exec to the first frame on screen (warpviz's own
# WARPVIZ_STARTUP_TIMES report; the PNG writing and the exit come after it).
first_frame_ms() {
  WARPVIZ_STARTUP_TIMES=1 "$@" 2>"$work/log" >/dev/null || { cat "$work/log" >&2; return 1; }
  sed -n 's/^startup: *\([0-9.]*\) ms  first frame$/\1/p' "$work/log"
}

echo
echo "== start to first frame (exec to the first frame swapped and finished) =="
"$cli" run reduce_sum --set n=80896 --set block=256 -o "$work/big.wvt" >/dev/null 2>&1
"$cli" run warp_sum -o "$work/small.wvt" >/dev/null 2>&1
steps=$("$cli" dump "$work/big.wvt" | sed -n 's/^steps *//p')
echo "big trace: $steps steps = $((steps * 32)) lane records, $(du -h "$work/big.wvt" | cut -f1) on disk"
for run in 1 2 3 4 5; do
  small=$(first_frame_ms "$app" "$work/small.wvt" --size $size --screenshot "$work/small.png")
  big=$(first_frame_ms "$app" "$work/big.wvt" --size $size --screenshot "$work/big.png")
  big_step=$(first_frame_ms "$app" "$work/big.wvt" --size $size --step $steps --screenshot "$work/big_end.png")
  printf 'run %d: one warp %s ms   1M lane records %s ms   same, at its last step %s ms\n' "$run" "$small" "$big" "$big_step"
done
echo "phases of the last run (1M lane records):"
WARPVIZ_STARTUP_TIMES=1 "$app" "$work/big.wvt" --size $size --screenshot "$work/big.png" 2>&1 >/dev/null | sed 's/^/  /'

echo
echo "== 300 frames on the 1M-lane-record trace, animation playing =="
printf '%-44s ' "history, block and lane views:"
"$app" "$work/big.wvt" --size $size --bench-frames 300 | tail -n +2
