#!/usr/bin/env bash
# The corpus's reference outputs, made on a machine with an NVIDIA GPU and nvcc:
# every program of tests/corpus/programs.tsv built as its authors build it
# (plain nvcc, -arch=sm_90, their -I, -D and libraries) and run with the
# manifest's small arguments. Each run keeps its stdout, stderr, exit code,
# wall time and every copy back from the device (scripts/corpus/d2h_capture.c,
# preloaded; the programs are linked with -cudart shared so that it can be).
#
#   scripts/corpus-reference.sh CORPUS_DIR OUT_DIR [NAME_REGEX]
#
# writes OUT_DIR/corpus-reference.tar.gz, which unpacks into
# tests/corpus/reference/ (see tests/corpus/README.md). Nothing here needs
# warpviz itself.
set -uo pipefail
corpus=$(cd "${1:?corpus folder}" && pwd)
out=$(mkdir -p "${2:?output folder}" && cd "$2" && pwd)
only=${3:-.}
here=$(cd "$(dirname "$0")/.." && pwd)
table=$here/tests/corpus/programs.tsv
cuda=${CUDA_HOME:-/usr/local/cuda}
nvcc=$cuda/bin/nvcc
jobs=${WARPVIZ_CORPUS_JOBS:-$(nproc)}
run_jobs=${WARPVIZ_CORPUS_RUN_JOBS:-4}
limit=${WARPVIZ_CORPUS_TIMEOUT:-120}
# WARPVIZ_CORPUS_REPEAT=N runs each row N times: the first run is the
# reference; a later run whose stdout or copies differ from it keeps
# NAME.out.K and NAME.d2h.K, and NAME.repeats says how many of the N differed
# (what the H200 itself leaves to the order threads run in).
repeat=${WARPVIZ_CORPUS_REPEAT:-1}

work=$(mktemp -d /tmp/corpus-ref.XXXXXX)
ref=$work/reference
mkdir -p "$ref" "$work/bin"
cp -r "$corpus" "$work/corpus"   # the programs write nothing, but some builds need a writable folder
gcc -O2 -shared -fPIC -I"$cuda/include" "$here/scripts/corpus/d2h_capture.c" -o "$work/d2h_capture.so" -ldl -lpthread ||
  { echo "corpus-reference: cannot build the capture library" >&2; exit 1; }

{
  echo "date: $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>&1
  "$nvcc" --version | tail -2
  echo "host compiler: $(g++ --version | head -1)"
} >"$ref/ENVIRONMENT"

# One build per distinct program (llm.c's variants share theirs).
build_one() {
  local name=$1 folder=$2 sources=$3 flags=$4 exe=$5
  local key=${name%%.*}
  local bin=$work/bin/$key
  [ -e "$bin.done" ] && return 0
  (
    cd "$work/corpus/$folder" || exit 1
    # shellcheck disable=SC2086  # the table's fields are word lists
    "$nvcc" -arch=sm_90 -cudart shared $flags $sources -o "$bin" >"$bin.build.log" 2>&1
  )
  echo $? >"$bin.done"
}
export -f build_one
export work nvcc
grep -v '^#' "$table" | awk -F'\t' -v re="$only" '$1 ~ re' |
  awk -F'\t' '!seen[substr($1, 1, index($1 ".", ".") - 1)]++' |
  tr '\t' '\037' | xargs -d '\n' -P "$jobs" -n 1 bash -c 'IFS=$'"'"'\037'"'"' read -r a b c d e f <<<"$1"; build_one "$a" "$b" "$c" "$d" "$f"' _

run_one() {
  local name=$1 folder=$2 args=$3 exe=$4
  local key=${name%%.*}
  local bin=$work/bin/$key dir=$work/corpus/$folder
  if [ "$(cat "$bin.done" 2>/dev/null)" != 0 ]; then
    echo "build failed" >"$ref/$name.exit"
    cp "$bin.build.log" "$ref/$name.build.log" 2>/dev/null
    return
  fi
  cp "$bin" "$dir/$exe"
  local t0 t1
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  (cd "$dir" && OMP_NUM_THREADS=32 WARPVIZ_D2H_LOG="$ref/$name.d2h" WARPVIZ_D2H_DATA="$ref/$name.d2h.bin" \
    LD_PRELOAD="$work/d2h_capture.so" timeout "$limit" "./$exe" $args >"$ref/$name.out" 2>"$ref/$name.err" </dev/null)
  echo $? >"$ref/$name.exit"
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{printf "%.3f\n", $2 - $1}' >"$ref/$name.seconds"
  local k differing=0
  for ((k = 2; k <= repeat; ++k)); do
    # shellcheck disable=SC2086
    (cd "$dir" && OMP_NUM_THREADS=32 WARPVIZ_D2H_LOG="$ref/$name.d2h.$k" WARPVIZ_D2H_DATA=/dev/null \
      LD_PRELOAD="$work/d2h_capture.so" timeout "$limit" "./$exe" $args >"$ref/$name.out.$k" 2>/dev/null </dev/null)
    if cmp -s "$ref/$name.out" "$ref/$name.out.$k" &&
       cmp -s <(awk '{print $1, $2, $3, $4}' "$ref/$name.d2h") <(awk '{print $1, $2, $3, $4}' "$ref/$name.d2h.$k"); then
      rm -f "$ref/$name.out.$k" "$ref/$name.d2h.$k"
    else
      differing=$((differing + 1))
    fi
  done
  [ "$repeat" -gt 1 ] && echo "$repeat runs, $differing differ from the first" >"$ref/$name.repeats"
  rm -f "$dir/$exe"
}
export -f run_one
export ref limit repeat
# Programs of one folder share an argv[0] path: run those one after another.
grep -v '^#' "$table" | awk -F'\t' -v re="$only" '$1 ~ re' | tr '\t' '\037' |
  awk -F'\037' '{ g[$2] = g[$2] $0 "\036" } END { for (k in g) print g[k] }' |
  xargs -d '\n' -P "$run_jobs" -n 1 bash -c '
    IFS=$'"'"'\036'"'"' read -r -a rows <<<"$1"
    for row in "${rows[@]}"; do
      [ -n "$row" ] || continue
      IFS=$'"'"'\037'"'"' read -r a b c d e f <<<"$row"
      run_one "$a" "$b" "$e" "$f"
    done' _

# Empty data files say nothing: drop them.
find "$ref" -name '*.d2h.bin' -size 0 -delete
(cd "$ref" && for f in *.exit; do printf '%-40s exit %-14s %8ss\n' "${f%.exit}" "$(cat "$f")" "$(cat "${f%.exit}.seconds" 2>/dev/null)"; done) |
  tee "$ref/SUMMARY"
tar -C "$work" -czf "$out/corpus-reference.tar.gz" reference
echo "corpus-reference: $(ls "$ref"/*.exit | wc -l) runs, $(du -sh "$out/corpus-reference.tar.gz" | cut -f1) in $out/corpus-reference.tar.gz"
