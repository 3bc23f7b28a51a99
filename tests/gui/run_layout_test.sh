#!/usr/bin/env bash
# One layout test: warpviz under Xvfb writes a screenshot and its layout
# report, check_layout asserts on the report.
#
#   run_layout_test.sh WARPVIZ CHECKER OUT_PREFIX [WARPVIZ ARGS...] -- [CHECKER ARGS...]
#
# Writes OUT_PREFIX.png and OUT_PREFIX.json (look at the PNG when it fails).
# Without xvfb-run it fails and says how to get it, as run_gui_test.sh does.
set -euo pipefail

if [ $# -lt 3 ]; then
  echo "usage: $0 WARPVIZ CHECKER OUT_PREFIX [WARPVIZ ARGS...] -- [CHECKER ARGS...]" >&2
  exit 2
fi
app=$1 checker=$2 out=$3
shift 3
app_args=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do app_args+=("$1"); shift; done
[ $# -gt 0 ] && shift
check_args=("$@")

if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "FAIL: xvfb-run not found; the GUI tests need a virtual X server (scripts/install-deps.sh installs xvfb)." >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
rm -f "$out.png" "$out.json"
# The screen is as large as the largest window asked for (3840x2160).
echo "+ xvfb-run warpviz --screenshot $out.png --layout-report $out.json ${app_args[*]}"
rc=0
LIBGL_ALWAYS_SOFTWARE=1 timeout 180 xvfb-run -a -s "-screen 0 3840x2160x24" \
    "$app" --screenshot "$out.png" --layout-report "$out.json" "${app_args[@]}" >"$out.log" 2>&1 || rc=$?
if [ "$rc" != 0 ] || [ ! -s "$out.json" ]; then
  echo "FAIL: warpviz exited with $rc or wrote no report; its output:" >&2
  cat "$out.log" >&2
  exit 1
fi
exec "$checker" "$out.json" "${check_args[@]}"
