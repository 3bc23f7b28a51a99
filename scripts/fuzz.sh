#!/usr/bin/env bash
# libFuzzer campaigns on warpviz's parsers (tests/fuzz/).
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_FLAG]...   one campaign
#   scripts/fuzz.sh all SECONDS [LIBFUZZER_FLAG]...      every target in turn
#   scripts/fuzz.sh --available                          exit 0 when clang++ with libFuzzer is here
#
# TARGET: wvt (read_trace_binary), json (trace_from_json), scenario (--set /
# --input parsers), settings (the app's settings file), lesson (lesson files),
# user_source (kernel signatures and the host rewrite of users' .cu files).
# Builds build-fuzz (clang, ASan + UBSan, no CUDA, no app) when needed, runs the target over a copy of
# tests/fuzz/corpus/TARGET (the checked-in seeds stay as they are), prints the
# execution count, and fails on any finding; the reproducer is left in
# build-fuzz/fuzz-artifacts/TARGET/. Extra flags go to libFuzzer, e.g.
# -workers=1 -jobs=1, -max_len=4096 (1 MiB unless given). WARPVIZ_FUZZ_BUILD_DIR changes the folder.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(wvt json scenario settings lesson user_source)
build_dir=${WARPVIZ_FUZZ_BUILD_DIR:-build-fuzz}

fuzz_available() {
  command -v clang++ >/dev/null || return 1
  local tmp
  tmp=$(mktemp -d)
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$tmp/t.cpp"
  local ok=0
  clang++ -fsanitize=fuzzer,address,undefined "$tmp/t.cpp" -o "$tmp/t" >/dev/null 2>&1 || ok=1
  rm -rf "$tmp"
  return $ok
}

if [ "${1:-}" = "--available" ]; then
  fuzz_available
  exit
fi
if [ $# -lt 2 ]; then
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2
  exit 2
fi
target=$1 seconds=$2
shift 2
if ! fuzz_available; then
  echo "fuzz.sh: clang++ with libFuzzer is missing (apt-get install clang libclang-rt-14-dev)" >&2
  exit 1
fi

# Configure once; build only the fuzz targets (and what they link).
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$build_dir" -DWARPVIZ_FUZZ=ON -DWARPVIZ_ENABLE_CUDA=OFF \
    -DWARPVIZ_BUILD_APP=OFF -DBUILD_TESTING=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build_dir" --target warpviz_fuzz -j "$(nproc)"

run_one() {
  local name=$1 seconds=$2
  shift 2
  local binary=$build_dir/tests/fuzz/fuzz_$name
  local seeds=tests/fuzz/corpus/$name
  [ -x "$binary" ] || { echo "fuzz.sh: no target '$name' (one of: ${targets[*]})" >&2; return 2; }
  local work artifacts=$build_dir/fuzz-artifacts/$name
  work=$(mktemp -d)
  mkdir -p "$artifacts" "$work/corpus"
  cp "$seeds"/* "$work/corpus/"
  local dict=()
  case $name in
    wvt | json) dict=(-dict=tests/fuzz/trace.dict) ;;
    user_source) dict=(-dict=tests/fuzz/user_source.dict) ;;
  esac
  local log=$work/log rc=0
  echo "fuzz.sh: $name for ${seconds}s over $(ls "$seeds" | wc -l) seeds"
  # Inputs up to 1 MiB: the settings and lesson crashes (deep nesting, a 40 000-key
  # table) were past libFuzzer's 4096-byte default; a later -max_len overrides it.
  "$binary" -max_total_time="$seconds" -max_len=1048576 -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${dict[@]}" "$@" "$work/corpus" >"$log" 2>&1 || rc=$?
  local execs
  execs=$(grep -h 'stat::number_of_executed_units' "$log" "$work"/fuzz-*.log 2>/dev/null |
    awk '{n += $2} END {print n + 0}' || true)
  if [ $rc -ne 0 ] || grep -q 'FUZZ FINDING\|ERROR: AddressSanitizer\|runtime error\|deadly signal' "$log"; then
    tail -n 60 "$log" >&2
    echo "fuzz.sh: $name: FINDING after $execs executions; reproducer in $artifacts/" >&2
    rm -rf "$work"
    return 1
  fi
  echo "fuzz.sh: $name: $execs executions in ${seconds}s, no finding"
  rm -rf "$work"
}

if [ "$target" = all ]; then
  failed=0
  for name in "${targets[@]}"; do run_one "$name" "$seconds" "$@" || failed=1; done
  exit $failed
fi
run_one "$target" "$seconds" "$@"
