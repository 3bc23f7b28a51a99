#!/usr/bin/env bash
# One GUI smoke test: start warpviz under Xvfb, let it write one screenshot,
# then check the pixels.
#
#   run_gui_test.sh WARPVIZ CHECKER OUT.png [WARPVIZ ARGS...] -- [CHECKER ARGS...]
#
# WARPVIZ_GUI_EXPECT_EXIT (default 0) is the exit status warpviz must give: 2
# for a run that shows an error and still says so to scripts.
#
# Without xvfb-run the test fails and says how to get it: a GUI test that
# cannot run must not pass (scripts/install-deps.sh installs xvfb).
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 WARPVIZ CHECKER OUT.png [WARPVIZ ARGS...] -- [CHECKER ARGS...]" >&2
  exit 2
fi
app=$1 checker=$2 out=$3
shift 3
app_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do app_args+=("$1"); shift; done
[ $# -gt 0 ] && shift  # the --
check_args=("$@")

if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "FAIL: xvfb-run not found; the GUI tests need a virtual X server." >&2
  echo "      Install it with scripts/install-deps.sh (Debian package xvfb)." >&2
  exit 1
fi

mkdir -p "$(dirname "$out")"
rm -f "$out"
log=${out%.png}.log
# A fresh X server per test (-a picks a free display); software GL (llvmpipe)
# gives OpenGL 3.3 core without a GPU.
expect_exit=${WARPVIZ_GUI_EXPECT_EXIT:-0}
echo "+ xvfb-run warpviz --screenshot $out ${app_args[*]}"
rc=0
LIBGL_ALWAYS_SOFTWARE=1 timeout 120 xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$app" --screenshot "$out" "${app_args[@]}" >"$log" 2>&1 || rc=$?
if [ "$rc" != "$expect_exit" ]; then
  echo "FAIL: warpviz exited with $rc (expected $expect_exit); its output:" >&2
  cat "$log" >&2
  exit 1
fi
if [ ! -s "$out" ]; then
  echo "FAIL: warpviz wrote no screenshot at $out; its output:" >&2
  cat "$log" >&2
  exit 1
fi
exec "$checker" "$out" "${check_args[@]}"
