#!/usr/bin/env bash
# The one GPU run: on a machine with an NVIDIA GPU, given a build made with
# CUDA, runs every GPU test, records the shipped traces, runs the capture
# benchmark and the example, and prints a summary.
#   scripts/gpu-check.sh [BUILD_DIR] [OUT_DIR]
# The build may be carried from another machine: BUILD_DIR/lib holds the
# shared libraries it needs (libboost_context), put there before the copy.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
out=${2:-${OUT:-/tmp/warpviz-gpu}}
mkdir -p "$out/traces"
export LD_LIBRARY_PATH="$PWD/$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cli="$build/cli/warpviz-cli"
summary=()

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"

echo "== GPU tests: every scenario on both backends, bit for bit"
"$build/tests/test_gpu" 2>&1 | tee "$out/test_gpu.log" | tail -40
summary+=("test_gpu: exit ${PIPESTATUS[0]}")

echo "== shipped traces: one per scenario, recorded here"
scenarios=$("$cli" list --json | python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(sys.stdin)))')
recorded=0 equal=0
for s in $scenarios; do
  if "$cli" run "$s" --backend cuda -o "$out/traces/$s.wvt" >/dev/null 2>&1; then
    recorded=$((recorded + 1))
    "$cli" run "$s" --backend cpu -o "$out/cpu_$s.wvt" >/dev/null 2>&1
    if "$cli" diff "$out/traces/$s.wvt" "$out/cpu_$s.wvt" >"$out/diff_$s.txt"; then equal=$((equal + 1)); else
      echo "  $s differs:"; head -5 "$out/diff_$s.txt"; fi
    rm -f "$out/cpu_$s.wvt" "$out/diff_$s.txt"
  else
    echo "  $s: recording failed"
  fi
done
(cd "$out" && tar cf traces.tar traces && rm -rf traces)
summary+=("shipped traces: $recorded recorded, $equal equal to the CPU emulator")

echo "== capture benchmark"
"$cli" bench record 2>&1 | tee "$out/bench_record.log"
summary+=("bench record: exit ${PIPESTATUS[0]}")

echo "== a user's kernel, recorded"
if "$build/kernels/warpviz-example-record" "$out/example.wvt" 2>&1; then
  "$cli" dump "$out/example.wvt" --active-only | head -30
  summary+=("example: recorded and dumped")
else
  summary+=("example: FAILED")
fi

echo "== summary"
printf '  %s\n' "${summary[@]}"
grep -A20 -i "summary" "$out/test_gpu.log" | tail -20
