#!/usr/bin/env bash
# The README's first command: install what is missing, build, start warpviz on
# its built-in default (warp_sum). Arguments go to warpviz (warpviz --help).
# Without a display warpviz itself says so and how to take a screenshot instead.
set -euo pipefail
caller_dir=$PWD  # a file named on the command line is relative to where the user is
cd "$(dirname "$0")/.."
repo=$PWD

bash scripts/install-deps.sh
build_dir=${WARPVIZ_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target warpviz warpviz-cli
cd "$caller_dir"
case $build_dir in /*) app="$build_dir/app/warpviz" ;; *) app="$repo/$build_dir/app/warpviz" ;; esac
exec "$app" "$@"
