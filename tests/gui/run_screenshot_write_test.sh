#!/usr/bin/env bash
# --screenshot writes through write_file_replacing (app/screenshot.cpp, as
# Ctrl+Shift+S does): the PNG goes to a new file renamed over the old one (a
# new inode: never a file truncated and half written in place), a symbolic
# link is followed and stays a link, the file it names keeps its permission
# bits, and no temporary file is left beside it.
#
#   run_screenshot_write_test.sh WARPVIZ OUT_DIR
set -euo pipefail
app=$1 dir=$2
if ! command -v xvfb-run >/dev/null 2>&1; then
  echo "FAIL: xvfb-run not found; install it with scripts/install-deps.sh (Debian package xvfb)." >&2
  exit 1
fi
rm -rf "$dir"
mkdir -p "$dir"
echo "old contents" >"$dir/target.png"
chmod 640 "$dir/target.png"
ln -s target.png "$dir/link.png"
inode_before=$(stat -c %i "$dir/target.png")
LIBGL_ALWAYS_SOFTWARE=1 timeout 120 xvfb-run -a -s "-screen 0 1920x1080x24" \
    "$app" --screenshot "$dir/link.png" --size 640x360 --scenario warp_sum >"$dir/log" 2>&1 ||
  { echo "FAIL: warpviz exited with $?:" >&2; cat "$dir/log" >&2; exit 1; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -L "$dir/link.png" ] || fail "link.png is no longer a symbolic link"
[ "$(stat -c %i "$dir/target.png")" != "$inode_before" ] || fail "target.png was written in place, not replaced"
[ "$(stat -c %a "$dir/target.png")" = 640 ] || fail "target.png's mode is $(stat -c %a "$dir/target.png"), not 640"
[ "$(head -c 8 "$dir/target.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "target.png is not a PNG"
extra=$(ls -A "$dir" | grep -v -x -e target.png -e link.png -e log || true)
[ -z "$extra" ] || fail "files left beside it: $extra"
echo "ok: the screenshot went through the link into target.png, mode 640 kept"
