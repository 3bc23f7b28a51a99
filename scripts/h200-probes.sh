#!/usr/bin/env bash
# The probes of tests/h200_probes/, on a machine with an NVIDIA GPU: each .cu
# built with plain nvcc -arch=sm_90 (its defaults, -fmad=true among them) and
# run; its output is written to OUT_DIR/NAME.out, to be kept beside the probe
# as the reference that the CPU emulator's run of the same file must equal.
#
#   scripts/h200-probes.sh OUT_DIR
set -uo pipefail
out=$(mkdir -p "${1:?output folder}" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
status=0
for cu in "$here"/tests/h200_probes/*.cu; do
  name=$(basename "$cu" .cu)
  if ! "$nvcc" -arch=sm_90 "$cu" -o "/tmp/probe-$name" 2>"$out/$name.build.log"; then
    echo "h200-probes: $name does not build (see $name.build.log)"; status=1; continue
  fi
  "/tmp/probe-$name" >"$out/$name.out" 2>&1
  echo "h200-probes: $name exit $? ($(wc -l <"$out/$name.out") lines)"
done
# Whole programs whose output the emulator's must equal, kept as
# tests/h200_probes/FOLDER/NAME.out: warp-synchronous code
# (tests/user_files/lockstep/, test_converged_warp) and a kernel's illegal
# address (tests/user_files/faults/, test_gpu_errors).
for folder in lockstep faults; do
  mkdir -p "$out/$folder"
  for cu in "$here"/tests/user_files/$folder/*.cu; do
    name=$(basename "$cu" .cu)
    if ! "$nvcc" -arch=sm_90 "$cu" -o "/tmp/$folder-$name" 2>"$out/$folder/$name.build.log"; then
      echo "h200-probes: $folder/$name does not build (see $folder/$name.build.log)"; status=1; continue
    fi
    rm -f "$out/$folder/$name.build.log"
    timeout 60 "/tmp/$folder-$name" >"$out/$folder/$name.out" 2>&1
    echo "h200-probes: $folder/$name exit $? ($(wc -l <"$out/$folder/$name.out") lines)"
  done
done
# Programs of the CPU suites whose printed lines the emulator's must equal
# (the lines before warpviz's own summary), kept as
# tests/h200_probes/programs/NAME.out: address spaces and symbols, the barrier
# predicates, blocks sharing global memory through atomics, and a launch from
# device code (which the CPU backend refuses; the GPU runs it).
mkdir -p "$out/programs"
for cu in "$here"/tests/user_files/device_api/{address_spaces,syncthreads_predicates}.cu \
          "$here"/tests/user_files/blocks/{counted_blocks,disjoint_sums}.cu "$here"/tests/user_files/launch_from_kernel.cu; do
  name=$(basename "$cu" .cu)
  rdc=(); [ "$name" = launch_from_kernel ] && rdc=(-rdc=true)  # dynamic parallelism
  if ! "$nvcc" -arch=sm_90 "${rdc[@]}" "$cu" -o "/tmp/programs-$name" 2>"$out/programs/$name.build.log"; then
    echo "h200-probes: programs/$name does not build (see programs/$name.build.log)"; status=1; continue
  fi
  rm -f "$out/programs/$name.build.log"
  (cd "$(dirname "$cu")" && timeout 60 "/tmp/programs-$name") >"$out/programs/$name.out" 2>&1
  echo "h200-probes: programs/$name exit $? ($(wc -l <"$out/programs/$name.out") lines)"
done
# compute-sanitizer's racecheck on the unrolled volatile reduction, kept as
# tests/h200_probes/lockstep/racecheck_volatile_warp_reduce.txt: the hazards
# the H200 names for warp-synchronous code that still sums right.
sanitizer=${CUDA_HOME:-/usr/local/cuda}/bin/compute-sanitizer
if "$nvcc" -arch=sm_90 -lineinfo "$here/tests/user_files/lockstep/volatile_warp_reduce.cu" -o /tmp/racecheck-vwr; then
  (cd "$here/tests/user_files/lockstep" && "$sanitizer" --tool racecheck /tmp/racecheck-vwr) \
    >"$out/lockstep/racecheck_volatile_warp_reduce.txt" 2>&1
  echo "h200-probes: racecheck $(tail -1 "$out/lockstep/racecheck_volatile_warp_reduce.txt")"
fi
exit $status
