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
  # Shared-memory scenarios come from profile: ncu's counters and the measured cycles ride along.
  case $s in bank|transpose) record=(profile "$s") ;; *) record=(run "$s" --backend cuda) ;; esac
  if "$cli" "${record[@]}" -o "$out/traces/$s.wvt" >"$out/record_$s.log" 2>&1 || [[ ${record[0]} == profile && -s "$out/traces/$s.wvt" ]]; then
    recorded=$((recorded + 1))
    "$cli" run "$s" --backend cpu -o "$out/cpu_$s.wvt" >/dev/null 2>&1
    if "$cli" diff "$out/traces/$s.wvt" "$out/cpu_$s.wvt" >"$out/diff_$s.txt"; then equal=$((equal + 1)); else
      echo "  $s differs:"; head -5 "$out/diff_$s.txt"; fi
    rm -f "$out/cpu_$s.wvt" "$out/diff_$s.txt"
  else
    echo "  $s: recording failed:"; tail -5 "$out/record_$s.log"
  fi
  rm -f "$out/record_$s.log"
done
summary+=("shipped traces: $recorded recorded, $equal equal to the CPU emulator")

echo "== bank traces: warpviz-cli profile (bank model vs ncu, latency and throughput cycles)"
# name scenario NAME=VALUE...
bank_cases=(
  "bank_column_32 bank pattern=column cols=32"
  "bank_column_33 bank pattern=column cols=33"
  "bank_row bank pattern=row"
  "bank_broadcast bank pattern=broadcast"
  "bank_stride_2 bank pattern=stride stride=2"
  "bank_stride_3 bank pattern=stride stride=3"
  "bank_stride_32 bank pattern=stride stride=32"
  "bank_stride_32_8lanes bank pattern=stride stride=32 active=0xff"
  "bank_xor_swizzle bank pattern=xor-swizzle"
  "bank_column_e8_32 bank pattern=column elem=8 cols=32"
  "bank_column_e8_33 bank pattern=column elem=8 cols=33"
  "bank_column_e16_32 bank pattern=column elem=16 cols=32"
  "bank_column_e16_33 bank pattern=column elem=16 cols=33"
  "bank_store_column_32 bank pattern=column op=store cols=32"
  "bank_store_column_33 bank pattern=column op=store cols=33"
  "bank_custom_2words bank pattern=custom addrs=$(python3 -c 'print(",".join(str((l & 1) * 128) for l in range(32)))')"
  "transpose_32 transpose cols=32"
  "transpose_33 transpose cols=33"
)
profiled=0 matched=0 bank_equal=0
bank_table=()
for c in "${bank_cases[@]}"; do
  read -r name scenario kvs <<<"$c"
  sets=()
  for kv in $kvs; do sets+=(--set "$kv"); done
  log="$out/profile_$name.log"
  "$cli" profile "$scenario" "${sets[@]}" -o "$out/traces/$name.wvt" >"$log" 2>&1
  rc=$?
  [[ -s "$out/traces/$name.wvt" ]] && profiled=$((profiled + 1))
  verdict="ncu matches the model"
  case $rc in
    0) matched=$((matched + 1)) ;;
    1) verdict="ncu MISMATCH"; grep MISMATCH "$log" | sed "s/^/  $name: /" ;;
    *) verdict="FAILED (exit $rc)"; echo "  $name: profile failed:"; tail -12 "$log" | sed 's/^/    /' ;;
  esac
  cpu_same="-"
  if [[ -s "$out/traces/$name.wvt" ]] && "$cli" run "$scenario" "${sets[@]}" --backend cpu -o "$out/cpu_$name.wvt" >/dev/null 2>&1; then
    if "$cli" diff "$out/traces/$name.wvt" "$out/cpu_$name.wvt" >/dev/null 2>&1; then cpu_same="= cpu"; bank_equal=$((bank_equal + 1)); else cpu_same="DIFFERS from cpu"; fi
    rm -f "$out/cpu_$name.wvt"
  fi
  tput=$(awk '/^  throughput /{print $2; exit}' "$log")
  lat=$(awk '/^  latency /{print $2; exit}' "$log")
  wf=$(awk '/^  (ld|st) wavefronts/ && $3 != 0 {printf "%s %s wf: model %s ncu %s; ", $1, $2, $3, $4}' "$log")
  bank_table+=("$(printf '%-22s %-28s %-14s thr %8s lat %8s  %s' "$name" "$verdict" "$cpu_same" "${tput:--}" "${lat:--}" "$wf")")
done
printf '  %s\n' "${bank_table[@]}"
t32=$(awk '/^  throughput /{print $2; exit}' "$out/profile_bank_column_32.log")
t33=$(awk '/^  throughput /{print $2; exit}' "$out/profile_bank_column_33.log")
ratio=$(python3 -c "import sys; a, b = sys.argv[1:]; print(f'{float(a) / float(b):.1f}')" "${t32:-nan}" "${t33:-nan}" 2>/dev/null || echo "n/a")
ratio_ok=$(python3 -c "import sys; print('PASS' if float(sys.argv[1]) >= 25 else 'MISS')" "$ratio" 2>/dev/null || echo "MISS")
echo "  column read, cols=32 vs cols=33: throughput ${t32:-?} vs ${t33:-?} SM cycles per warp-access: ${ratio}x (goal >= 25x): $ratio_ok"
summary+=("bank traces: $profiled of ${#bank_cases[@]} profiled, $matched with every ncu counter matching the model, $bank_equal equal to the CPU emulator")
summary+=("bank column cols=32 / cols=33 throughput: ${ratio}x (goal >= 25x): $ratio_ok")
(cd "$out" && tar cf traces.tar traces && rm -rf traces)

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
