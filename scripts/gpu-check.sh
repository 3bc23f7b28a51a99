#!/usr/bin/env bash
# The one GPU run: on a machine with an NVIDIA GPU, given a build made with
# CUDA, runs every GPU test, records the shipped traces, runs the capture
# benchmark and users' own .cu files on both backends, and prints a summary.
#   scripts/gpu-check.sh [BUILD_DIR] [RESULTS_DIR]
# The build may be carried from another machine: BUILD_DIR/lib holds the
# shared libraries it needs (libboost_context); scripts/gpu-bundle.sh makes
# such a folder (build-gpu).
# WARPVIZ_GPU_CHECK picks sections (default: all of them):
#   tests traces bank sass bench costs user overflow sanitize frames
# `frames` times the desktop app on the GPU's own GL driver: warpviz
# --offscreen (a headless EGL context) from BUILD_DIR/bin (a bundle) or
# BUILD_DIR/app, with glvnd's loaders unpacked from .gl/*.deb where the
# machine has no libEGL.so.1 (scripts/gpu-gl-debs.sh fetches them).
# RESULTS_DIR ends up with summary.txt, traces.tar (the shipped traces recorded
# here), logs.tar (every log) and measurements.json (bench latency and reduce).
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
results=${2:-${OUT:-/tmp/warpviz-gpu}}
sections=" ${WARPVIZ_GPU_CHECK:-tests traces bank sass bench costs user overflow sanitize frames} "
wanted() { [[ $sections == *" $1 "* ]]; }
out=$(mktemp -d)
mkdir -p "$results" "$out/traces" "$out/logs"
export LD_LIBRARY_PATH="$PWD/$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cli="$build/cli/warpviz-cli"
summary=()

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/logs/gpu.txt"
summary+=("GPU: $(cat "$out/logs/gpu.txt")")

if wanted tests; then
echo "== GPU tests: every scenario on both backends, bit for bit"
"$build/tests/test_gpu" 2>&1 | tee "$out/logs/test_gpu.log" | tail -40
summary+=("test_gpu: exit ${PIPESTATUS[0]}")
fi

if wanted traces; then
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
fi

if wanted bank; then
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
  log="$out/logs/profile_$name.log"
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
t32=$(awk '/^  throughput /{print $2; exit}' "$out/logs/profile_bank_column_32.log")
t33=$(awk '/^  throughput /{print $2; exit}' "$out/logs/profile_bank_column_33.log")
l32=$(awk '/^  latency /{print $2; exit}' "$out/logs/profile_bank_column_32.log")
l33=$(awk '/^  latency /{print $2; exit}' "$out/logs/profile_bank_column_33.log")
ratio=$(python3 -c "import sys; a, b = sys.argv[1:]; print(f'{float(a) / float(b):.1f}')" "${t32:-nan}" "${t33:-nan}" 2>/dev/null || echo "n/a")
ratio_ok=$(python3 -c "import sys; print('PASS' if float(sys.argv[1]) >= 25 else 'MISS')" "$ratio" 2>/dev/null || echo "MISS")
echo "  column read, cols=32 vs cols=33: throughput ${t32:-?} vs ${t33:-?} SM cycles per warp-access: ${ratio}x (goal >= 25x): $ratio_ok"
summary+=("bank traces: $profiled of ${#bank_cases[@]} profiled, $matched with every ncu counter matching the model, $bank_equal equal to the CPU emulator")
summary+=("bank column cols=32 / cols=33 throughput: ${ratio}x (goal >= 25x): $ratio_ok")
lratio=$(python3 -c "import sys; a, b = sys.argv[1:]; print(f'{float(a) / float(b):.2f}')" "${l32:-nan}" "${l33:-nan}" 2>/dev/null || echo "n/a")
summary+=("bank column cols=32 / cols=33 latency: ${l32:-?} vs ${l33:-?} cycles per access: ${lratio}x (the article says x32)")
printf '  %s\n' "${bank_table[@]}" >"$out/logs/bank_table.txt"
fi

if wanted sass; then
echo "== SASS of the shared-memory kernels: the recorded accesses are single LDS/STS, the fill LDGSTS"
# Per kernel instance: how many instructions of each shared-memory kind it has.
cuobjdump -sass "$cli" 2>/dev/null | awk '
  /Function :/ { fn = $3; keep = (fn ~ /bank_kernel|transpose_kernel|bank_cost|latency|throughput/) ; if (keep) order[++n] = fn; next }
  keep && match($0, /(LDS|STS|LDGSTS|UBLKCP|UTMALDG|UTMASTG|SYNCS|LDSM|ATOMS)[.A-Z0-9]*/) { count[fn "\t" substr($0, RSTART, RLENGTH)]++ }
  END { for (i = 1; i <= n; ++i) { line = order[i] ":"; for (k in count) { split(k, p, "\t"); if (p[1] == order[i]) line = line " " p[2] "x" count[k] } print line } }
' | tee "$out/logs/sass_shared.txt" | cut -c1-240
summary+=("sass: $(wc -l <"$out/logs/sass_shared.txt") kernel instances listed in logs/sass_shared.txt")
fi

if wanted bench; then
echo "== capture benchmark"
"$cli" bench record 2>&1 | tee "$out/logs/bench_record.log"
summary+=("bench record: exit ${PIPESTATUS[0]}")
echo "== trace loading: bench load on a reduce_sum trace of 2^20 elements (13 M lane records) recorded here"
if "$cli" run reduce_sum --set n=1048576 --backend cuda -o "$out/load.wvt" >"$out/logs/bench_load_record.log" 2>&1; then
  "$cli" bench load "$out/load.wvt" --repeat 9 2>&1 | tee "$out/logs/bench_load.log"
  summary+=("bench load: exit ${PIPESTATUS[0]}, $(grep -oE '[0-9.]+ M lane records/s' "$out/logs/bench_load.log" | head -1)")
else
  summary+=("bench load: recording the trace failed (logs/bench_load_record.log)")
fi
rm -f "$out/load.wvt"
fi

if wanted costs; then
echo "== what warp code costs: bench latency and bench reduce into measurements.json"
"$cli" bench latency --json "$results/measurements.json" 2>"$out/logs/bench_latency_progress.log" | tee "$out/logs/bench_latency.log"
summary+=("bench latency: exit ${PIPESTATUS[0]}")
"$cli" bench reduce --json "$results/measurements.json" 2>"$out/logs/bench_reduce_progress.log" | tee "$out/logs/bench_reduce.log"
summary+=("bench reduce: exit ${PIPESTATUS[0]}")
# The chains must keep one instruction per link: count them in the SASS.
cuobjdump -sass "$cli" 2>/dev/null | awk '
  /Function :/ { fn = $3; keep = (fn ~ /latency_chain/); if (keep) order[++n] = fn; next }
  keep && match($0, /(IADD3|SHFL|VOTE|MATCH|REDUX|LDS|STS|LOP3|ISETP|S2R|CS2R)[.A-Z0-9]*/) { count[fn "\t" substr($0, RSTART, RLENGTH)]++ }
  END { for (i = 1; i <= n; ++i) { line = order[i] ":"; for (k in count) { split(k, p, "\t"); if (p[1] == order[i]) line = line " " p[2] "x" count[k] } print line } }
' | tee "$out/logs/sass_latency.txt" | cut -c1-240
fi

if wanted overflow; then
echo "== a recorder that overflows: 2 step slots per warp, guarded buffers (WARPVIZ_TRACE_BUFFER_STEPS=2)"
# The buffer is poisoned and followed by a guard; after each launch the host
# checks that the device wrote nothing past it (else the run fails with "wrote
# outside its trace buffer"), then marks the trace overflowed, no rerun.
"$build/tests/test_gpu" "[overflow]" >"$out/logs/test_gpu_overflow.log" 2>&1
ovf_tests=$?
grep -E "test cases|All tests passed" "$out/logs/test_gpu_overflow.log" | tail -1 | sed 's/^/  test_gpu [overflow]: /'
scenarios=$("$cli" list --json | python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(sys.stdin)))')
ovf_runs=0 ovf_marked=0 ovf_fit=0 ovf_outside=0 ovf_failed=0
for s in $scenarios; do
  log="$out/logs/overflow_$s.txt"
  ovf_runs=$((ovf_runs + 1))
  if WARPVIZ_MEASURE_BANK_COST=0 WARPVIZ_TRACE_BUFFER_STEPS=2 "$cli" run "$s" --backend cuda -o "$out/overflow.wvt" >"$log" 2>&1; then
    if grep -q "the trace overflowed" "$log"; then ovf_marked=$((ovf_marked + 1)); else ovf_fit=$((ovf_fit + 1)); fi
  elif grep -q "outside its trace buffer" "$log"; then
    ovf_outside=$((ovf_outside + 1)); echo "  $s:"; grep -m1 "outside its trace buffer" "$log"
  else
    ovf_failed=$((ovf_failed + 1)); echo "  $s failed:"; tail -3 "$log"
  fi
done
rm -f "$out/overflow.wvt"
summary+=("forced overflow (2 slots a warp, guarded): $ovf_runs scenarios, $ovf_marked marked overflow, $ovf_fit fit in 2 slots, $ovf_outside wrote outside the buffer, $ovf_failed failed otherwise; test_gpu [overflow]: exit $ovf_tests")
fi

if wanted sanitize; then
echo "== compute-sanitizer: memcheck, racecheck, synccheck over every scenario (recorded, unrecorded, forced overflow) and bench record"
# Every scenario's kernels on their default (small) inputs, three ways:
# recorded, --no-record (the recorder off: enabled = 0) and recorded into a
# buffer of 2 step slots a warp (the overflow path); plus bench record on 2^20
# values. The bank scenarios' timing kernels are left out
# (WARPVIZ_MEASURE_BANK_COST=0): they are no recorded kernel, and a full wave
# of every SM under racecheck takes minutes. Runs go WARPVIZ_SANITIZE_JOBS at
# a time (8 by default) on the one GPU.
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
scenarios=$("$cli" list --json | python3 -c 'import json,sys; print(" ".join(s["name"] for s in json.load(sys.stdin)))')
san_started=$SECONDS
mkdir -p "$out/sanitize"
# One small run first: on some machines compute-sanitizer refuses the device
# ("Device not supported"); then say so once rather than in every run.
probe="$out/logs/sanitize_probe.txt"
"$sanitizer" --tool memcheck "$cli" run warp_sum --backend cuda -o "$out/sanitize/probe.wvt" >"$probe" 2>&1
if ! grep -q "ERROR SUMMARY" "$probe"; then
  echo "  compute-sanitizer did not run here:"; tail -5 "$probe" | sed 's/^/    /'
  summary+=("compute-sanitizer: did not run on this machine ($(grep -m1 -iE "error|not supported" "$probe" | cut -c1-120))")
else
jobs_file="$out/sanitize/jobs.txt"
: >"$jobs_file"
for tool in memcheck racecheck synccheck; do
  for s in $scenarios; do
    for mode in recorded unrecorded overflow; do echo "$tool $mode $s" >>"$jobs_file"; done
  done
  echo "$tool bench record" >>"$jobs_file"
done
sanitize_one() {  # TOOL MODE NAME: runs one, writes "TOOL MODE NAME EXIT ERRORS WARNINGS" to its result file
  local tool=$1 mode=$2 name=$3 extra=() env=(WARPVIZ_MEASURE_BANK_COST=0)
  local log="$SAN_OUT/logs/sanitize_${tool}_${mode}_${name}.txt"
  case $mode in
    unrecorded) extra=(--no-record) ;;
    overflow) env+=(WARPVIZ_TRACE_BUFFER_STEPS=2) ;;
  esac
  if [[ $mode == bench ]]; then
    env "${env[@]}" "$SAN_TOOL" --tool "$tool" --error-exitcode 99 "$SAN_CLI" bench record --log2n 20 --repeat 2 >"$log" 2>&1
  else
    env "${env[@]}" "$SAN_TOOL" --tool "$tool" --error-exitcode 99 "$SAN_CLI" run "$name" --backend cuda "${extra[@]}" \
      -o "$SAN_OUT/sanitize/$tool-$mode-$name.wvt" >"$log" 2>&1
  fi
  local rc=$?
  rm -f "$SAN_OUT/sanitize/$tool-$mode-$name.wvt"
  # racecheck: "RACECHECK SUMMARY: H hazards displayed (E errors, W warnings)";
  # memcheck and synccheck: "ERROR SUMMARY: N errors". Neither: -1 (unread).
  local errors=-1 warnings=0 race
  race=$(grep -oE "RACECHECK SUMMARY: .*\([0-9]+ errors?, [0-9]+ warnings?\)" "$log" | tail -1)
  if [[ -n $race ]]; then
    errors=$(sed -E 's/.*\(([0-9]+) error.*/\1/' <<<"$race")
    warnings=$(sed -E 's/.*, ([0-9]+) warning.*/\1/' <<<"$race")
  else
    errors=$(grep -oE "ERROR SUMMARY: [0-9]+" "$log" | awk '{s += $3} END {print NR ? s : -1}')
  fi
  echo "$tool $mode $name $rc $errors $warnings" >"$SAN_OUT/sanitize/result-$tool-$mode-$name"
}
export -f sanitize_one
export SAN_OUT="$out" SAN_TOOL="$sanitizer" SAN_CLI="$PWD/$cli"
xargs -P "${WARPVIZ_SANITIZE_JOBS:-8}" -L 1 bash -c 'sanitize_one "$@"' _ <"$jobs_file"
cat "$out"/sanitize/result-* >"$out/logs/sanitize_results.txt"
for tool in memcheck racecheck synccheck; do
  line=$(awk -v tool="$tool" '
    $1 == tool { runs++; if ($5 < 0) unread++; else errors += $5; warnings += $6
                 if ($4 == 0 && $5 == 0) clean++; else bad = bad " " $2 "/" $3 "(exit " $4 ", errors " $5 ")" }
    END { printf "%d runs, %d clean, %d errors, %d warnings", runs, clean, errors, warnings
          if (unread) printf ", %d without a summary", unread
          if (bad != "") printf "; not clean:%s", bad }' "$out/logs/sanitize_results.txt")
  echo "  $tool: $line"
  summary+=("compute-sanitizer $tool: $line")
done
n_scen=$(wc -w <<<"$scenarios")
summary+=("compute-sanitizer: $n_scen scenarios x recorded/unrecorded/overflow + bench record per tool, in $((SECONDS - san_started)) s")
fi
fi

if wanted user; then
echo "== users' own .cu files: --backend cuda against --backend cpu, every launch"
# file|options (kernels-only files take their launch options)
user_cases=(
  "starter|--input iota"
  "tests/user_files/my_sum.cu|--input iota"
  "tests/user_files/warp_shuffle.cu|"
  "tests/user_files/dynamic_shared.cu|--grid 3 --block 128 --shared 16 --input ones --len out=3"
  "tests/user_files/shuffle_vs_barrier.cu|--input iota"
  "tests/user_files/declared.cu|--set factor=2 --set dtype=i32"
  "tests/user_files/watched.cu|--input iota"
  "kernels/examples/warp_prefix_sum.cu|--grid 2 --block 64 --input random:7"
  "kernels/examples/block_max.cu|"
  "examples/grading/submissions/correct.cu|--input random:3"
)
export WARPVIZ_CACHE_DIR="$out/cache"
"$cli" new "$out/starter.cu" >/dev/null
user_files=0 user_launches=0 user_equal=0
for c in "${user_cases[@]}"; do
  file=${c%%|*} opts=${c#*|}
  [[ $file == starter ]] && file="$out/starter.cu"
  [[ -f $file ]] || { echo "  $file: missing"; continue; }
  name=$(basename "$file" .cu)
  user_files=$((user_files + 1))
  # shellcheck disable=SC2086
  if ! "$cli" run "$file" $opts --backend cuda >"$out/logs/user_${name}_cuda.txt" 2>&1; then
    echo "  $name: the GPU run failed:"; tail -5 "$out/logs/user_${name}_cuda.txt"; continue
  fi
  launches=$(grep -c '^launch ' "$out/logs/user_${name}_cuda.txt")
  for ((l = 0; l < launches; l++)); do
    user_launches=$((user_launches + 1))
    # shellcheck disable=SC2086
    "$cli" run "$file" $opts --backend cuda --launch $l -o "$out/traces/user_${name}_$l.wvt" >/dev/null 2>&1
    # shellcheck disable=SC2086
    "$cli" run "$file" $opts --backend cpu --launch $l -o "$out/cpu_user.wvt" >/dev/null 2>&1
    if "$cli" diff "$out/traces/user_${name}_$l.wvt" "$out/cpu_user.wvt" >"$out/logs/user_diff_${name}_$l.txt"; then
      user_equal=$((user_equal + 1))
    else
      echo "  $name launch $l differs:"; head -5 "$out/logs/user_diff_${name}_$l.txt"
    fi
  done
  echo "  $name: $launches launch(es) on the GPU"; head -3 "$out/logs/user_${name}_cuda.txt"
done
summary+=("user files: $user_files files, $user_launches launches recorded on the GPU, $user_equal equal to the CPU emulator")
# A real deadlock (warp 1 spins on a value warp 0 writes after __syncthreads):
# the GPU should hang until the time limit, as the emulator does.
"$cli" run tests/user_files/deadlock.cu --block 64 --backend cuda --timeout 10 >"$out/logs/user_deadlock_cuda.txt" 2>&1
summary+=("deadlock.cu on the GPU: exit $? ($(grep -o 'stopped after the time limit[^;(]*' "$out/logs/user_deadlock_cuda.txt" | head -1))")
fi

if wanted frames; then
echo "== frame time on this machine's GL driver: warpviz --offscreen (headless EGL)"
app="$build/bin/warpviz"
[[ -x $app ]] || app="$build/app/warpviz"
frames_n=${WARPVIZ_FRAMES_N:-300}
if [[ ! -x $app ]]; then
  echo "  no app in $build (bin/warpviz or app/warpviz): scripts/gpu-bundle.sh carries it"
  summary+=("frames: not run, no app in $build")
else
  # glvnd's loaders, where the machine has none (unpacked into / as the
  # device notes say; only Debian's GL loader packages are carried).
  if ! ldconfig -p | grep -q 'libEGL\.so\.1 '; then
    if ls .gl/*.deb >/dev/null 2>&1; then
      for f in .gl/*.deb; do dpkg -x "$f" /; done
      ldconfig
      echo "  unpacked $(ls .gl/*.deb | xargs -n1 basename | tr '\n' ' ')"
    else
      echo "  no libEGL.so.1 here and no .gl/*.deb to unpack (scripts/gpu-gl-debs.sh, then carry .gl)"
    fi
  fi
  nvidia_egl=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
  [[ -f $nvidia_egl ]] && export __EGL_VENDOR_LIBRARY_FILENAMES=$nvidia_egl
  echo "  __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-(unset)}"
  size=1600x900
  panels=()
  for p in lanes timeline source history votes block scenario bank paths cost; do panels+=(--panel "$p"); done
  # The GL the context gets, and a look at the frame it draws.
  if env -u DISPLAY "$app" --offscreen --size $size --scenario reduce_sum --backend cpu --step 99 "${panels[@]}" \
       --screenshot "$out/logs/frames_reduce_sum.png" >"$out/logs/frames_gl.log" 2>&1; then
    gl=$(sed -n 's/^warpviz: --offscreen: //p' "$out/logs/frames_gl.log")
    echo "  $gl"
    summary+=("frames: $gl")
    # name|what|arguments: the four cases of the frame goal.
    # 316 blocks of 256: 31,284 steps x 32 lanes = 1,001,088 lane records.
    "$cli" run reduce_sum --backend cpu --set n=80896 --set block=256 -o "$out/big.wvt" >"$out/logs/frames_big_trace.log" 2>&1
    steps=$("$cli" dump "$out/big.wvt" | sed -n 's/^steps *//p')
    echo "  1M trace: reduce_sum n=80896 block=256, $steps steps = $((steps * 32)) lane records"
    frame_cases=(
      "warp_sum|32-lane view (warp_sum)|--scenario warp_sum --backend cpu"
      "block_256|256-thread block view (reduce_sum)|--scenario reduce_sum --backend cpu --set n=1024 --set block=256"
      "trace_1m|1M-lane-record trace ($steps steps)|$out/big.wvt"
      "bank|bank view (bank, column cols=32)|--scenario bank --backend cpu --set pattern=column --set cols=32"
    )
    frame_table=()
    for c in "${frame_cases[@]}"; do
      IFS='|' read -r name what args <<<"$c"
      log="$out/logs/frames_$name.log"
      # shellcheck disable=SC2086
      env -u DISPLAY "$app" --offscreen --size $size $args "${panels[@]}" --bench-frames "$frames_n" >"$log" 2>&1
      rc=$?
      wall=$(awk '/wall time/ {print $(NF-4), $(NF-1); exit}' "$log")
      thread=$(awk '/app thread CPU time/ {print $(NF-4), $(NF-1); exit}' "$log")
      mean=${wall%% *}
      verdict=$(python3 -c "import sys; print('PASS' if float(sys.argv[1]) <= 2 else 'MISS')" "${mean:-nan}" 2>/dev/null || echo "FAILED (exit $rc)")
      line=$(printf '%-46s wall %s ms (mean p95), app CPU %s ms; goal <= 2 ms wall: %s' "$what:" "${wall:-?}" "${thread:-?}" "$verdict")
      [[ $rc == 0 ]] || { line+=" (exit $rc)"; tail -5 "$log" | sed 's/^/    /'; }
      echo "  $line"
      frame_table+=("$line")
    done
    # Exec to the first frame finished, for the 1M-record trace: warpviz's
    # own WARPVIZ_STARTUP_TIMES report, five runs.
    firsts=()
    for run in 1 2 3 4 5; do
      WARPVIZ_STARTUP_TIMES=1 env -u DISPLAY "$app" --offscreen --size $size "$out/big.wvt" "${panels[@]}" \
        --screenshot "$out/big.png" >/dev/null 2>"$out/logs/frames_first_$run.log"
      firsts+=("$(sed -n 's/^startup: *\([0-9.]*\) ms  first frame$/\1/p' "$out/logs/frames_first_$run.log")")
    done
    median=$(printf '%s\n' "${firsts[@]}" | sort -n | sed -n 3p)
    first_verdict=$(python3 -c "import sys; print('PASS' if float(sys.argv[1]) <= 500 else 'MISS')" "${median:-nan}" 2>/dev/null || echo "FAILED")
    first_line="start to first frame, 1M-lane-record trace: ${firsts[*]} ms, median ${median:-?} ms; goal <= 500 ms: $first_verdict"
    echo "  $first_line"
    sed 's/^/    /' "$out/logs/frames_first_5.log"
    rm -f "$out/big.wvt" "$out/big.png"
    for line in "${frame_table[@]}"; do summary+=("frames, $frames_n at $size, every panel: $line"); done
    summary+=("frames: $first_line")
  else
    echo "  BLOCKED: GL did not start through EGL here:"
    sed 's/^/    /' "$out/logs/frames_gl.log"
    summary+=("frames: BLOCKED, GL did not start: $(grep -m1 'warpviz:' "$out/logs/frames_gl.log")")
  fi
fi
fi

{
  echo "== summary"
  printf '  %s\n' "${summary[@]}"
  [[ -f "$out/logs/bank_table.txt" ]] && { echo "== bank traces"; cat "$out/logs/bank_table.txt"; }
  [[ -f "$out/logs/test_gpu.log" ]] && grep -A20 -i "summary" "$out/logs/test_gpu.log" | tail -20
} | tee "$results/summary.txt"
(cd "$out" && tar cf "$results/traces.tar" traces && tar cf "$results/logs.tar" logs)
rm -rf "$out"
