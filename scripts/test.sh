#!/usr/bin/env bash
# The README's test command: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
build_dir=${WARPVIZ_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build_dir" -j "$(nproc)"

# The libFuzzer targets (tests/fuzz, scripts/fuzz.sh): built in build-fuzz with clang and
# run over the seed corpus for WARPVIZ_FUZZ_SECONDS each (30; 0 skips); a finding fails.
fuzz_seconds=${WARPVIZ_FUZZ_SECONDS:-30}
if [ "$fuzz_seconds" = 0 ]; then
  echo "test.sh: fuzzing skipped (WARPVIZ_FUZZ_SECONDS=0)"
elif bash scripts/fuzz.sh --available; then
  start=$SECONDS
  bash scripts/fuzz.sh all "$fuzz_seconds"
  echo "test.sh: fuzz targets built and run in $((SECONDS - start)) s"
else
  echo "test.sh: clang++ with libFuzzer not found; fuzz targets skipped"
fi

# The suite last, so that its summary closes the output.
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
