#!/usr/bin/env bash
# A layout test that must compile nothing: run_layout_test.sh with a fresh,
# empty compile cache ($XDG_CACHE_HOME/warpviz, runner/src/user_file.cpp),
# which must still hold no file afterwards.
#
#   run_no_compile_test.sh RUN_LAYOUT_TEST [ITS ARGS...]
set -euo pipefail
runner=$1
shift
cache=$(mktemp -d "${TMPDIR:-/tmp}/warpviz_no_compile.XXXXXX")
trap 'rm -rf "$cache"' EXIT
rc=0
XDG_CACHE_HOME=$cache "$runner" "$@" || rc=$?
built=$(find "$cache/warpviz" -type f 2>/dev/null | head -5 || true)  # Mesa keeps its shader cache beside it
if [ -n "$built" ]; then
  echo "FAIL: something was compiled into the cache:" >&2
  echo "$built" >&2
  exit 1
fi
echo "ok    nothing compiled (the cache $cache stayed empty)"
exit "$rc"
