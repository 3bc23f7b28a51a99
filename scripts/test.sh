#!/usr/bin/env bash
# The README's test command: install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

# --corpus: also run every corpus program against its H200 reference (tests/corpus).
corpus_tests=OFF
for arg in "$@"; do
  case "$arg" in
    --corpus) corpus_tests=ON ;;
    *) echo "test.sh: unknown option '$arg' (--corpus is the only one)" >&2; exit 2 ;;
  esac
done

bash scripts/install-deps.sh
build_dir=${WARPVIZ_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPVIZ_CORPUS_TESTS=$corpus_tests
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

# The suite under AddressSanitizer and UndefinedBehaviorSanitizer (undefined
# behaviour aborts) in a second folder: core, emulator, CLI and tests, users'
# programs compiled against the sanitized kit too; no app, no CUDA.
# WARPVIZ_SANITIZE_SUITE=0 skips it; a failure there fails the run, after the
# plain suite has run too.
sanitize_dir=${WARPVIZ_SANITIZE_BUILD_DIR:-build-asan}
sanitize_failed=0
if [ "${WARPVIZ_SANITIZE_SUITE:-1}" = 0 ]; then
  echo "test.sh: sanitizer suite skipped (WARPVIZ_SANITIZE_SUITE=0)"
else
  start=$SECONDS
  cmake -S . -B "$sanitize_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPVIZ_SANITIZE=ON \
    -DWARPVIZ_BUILD_APP=OFF -DWARPVIZ_ENABLE_CUDA=OFF
  cmake --build "$sanitize_dir" -j "$(nproc)"
  echo "test.sh: sanitizer build in $((SECONDS - start)) s"
  start=$SECONDS
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:check_initialization_order=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    ctest --test-dir "$sanitize_dir" --output-on-failure -j "$(nproc)" -LE corpus || sanitize_failed=1
  echo "test.sh: sanitizer suite in $((SECONDS - start)) s ($([ $sanitize_failed = 0 ] && echo passed || echo FAILED))"
fi

# The corpus rows first, timed on their own (CI's budget gives them 15
# minutes), then the plain suite, so that its summary closes the output.
start=$SECONDS
corpus_failed=0
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" -L corpus || corpus_failed=1
echo "test.sh: corpus rows in $((SECONDS - start)) s ($([ $corpus_failed = 0 ] && echo passed || echo FAILED))"
ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)" -LE corpus
if [ $corpus_failed != 0 ]; then
  echo "test.sh: a corpus row FAILED; see its output above" >&2
  exit 1
fi
if [ $sanitize_failed != 0 ]; then
  echo "test.sh: the sanitizer suite ($sanitize_dir) FAILED; see its output above" >&2
  exit 1
fi
