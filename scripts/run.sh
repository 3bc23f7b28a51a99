#!/usr/bin/env bash
# The README's first command: install what is missing, build, start warpviz on
# its built-in default (warp_sum). Arguments go to warpviz (warpviz --help).
# Without a display warpviz itself says so and how to take a screenshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
build_dir=${WARPVIZ_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" -j "$(nproc)" --target warpviz warpviz-cli
exec "$build_dir/app/warpviz" "$@"
