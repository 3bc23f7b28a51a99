#!/usr/bin/env bash
# --step N lands on step N: for every N from 1 to COUNT, warpviz writes a
# presentation screenshot and its layout report, and check_layout finds
# "step N of COUNT" on the presentation's step line (the timeline's number);
# --step COUNT+1 exits 2 naming the trace's range.
#
#   run_step_numbers_test.sh WARPVIZ CHECKER OUT_PREFIX COUNT [WARPVIZ ARGS...]
#
# One Xvfb for every run; the file's first run fills the program cache.
set -euo pipefail

if [ $# -lt 4 ]; then
  echo "usage: $0 WARPVIZ CHECKER OUT_PREFIX COUNT [WARPVIZ ARGS...]" >&2
  exit 2
fi
app=$1 checker=$2 out=$3 count=$4
shift 4
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "FAIL: xvfb-run not found; the GUI tests need a virtual X server (scripts/install-deps.sh installs xvfb)." >&2
  exit 1
fi
mkdir -p "$(dirname "$out")"
export app checker out count
LIBGL_ALWAYS_SOFTWARE=1 timeout 600 xvfb-run -a -s "-screen 0 1024x768x24" bash -c '
  set -u
  failed=0
  for n in $(seq 1 "$count"); do
    rm -f "$out.$n.json"
    if ! "$app" --screenshot "$out.$n.png" --layout-report "$out.$n.json" --presentation --size 800x450 \
         --step "$n" "$@" >"$out.$n.log" 2>&1; then
      echo "FAIL: --step $n: warpviz failed; its output:"; cat "$out.$n.log"; failed=1; continue
    fi
    "$checker" "$out.$n.json" --role-contains presentation_source "step $n of $count" || failed=1
  done
  past=$((count + 1))
  rc=0
  "$app" --screenshot "$out.$past.png" --presentation --size 800x450 --step "$past" "$@" >"$out.$past.log" 2>&1 || rc=$?
  if [ "$rc" != 2 ] || ! grep -q -- "--step $past: the trace has $count steps (1 to $count)" "$out.$past.log"; then
    echo "FAIL: --step $past exited $rc (expected 2 and the range); its output:"; cat "$out.$past.log"; failed=1
  else
    echo "ok    --step $past exits 2: $(cat "$out.$past.log")"
  fi
  exit $failed
' step_numbers "$@"
