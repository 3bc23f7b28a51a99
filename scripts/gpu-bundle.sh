#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh runs, here (nvcc needed, no GPU), and puts
# it in one small folder to carry to a GPU machine that has no Debian
# packages: the CLI, the GPU tests, libboost_context, and the kit a user's
# .cu file is compiled against (kit/, with the static libraries it names).
#   scripts/gpu-bundle.sh [BUNDLE_DIR]     (default build-gpu; then, there:
#   scripts/gpu-check.sh build-gpu RESULTS_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-build-gpu}
build=${WARPVIZ_BUILD_DIR:-build-device}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPVIZ_BUILD_APP=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target warpviz-cli test_gpu warpviz_user_kit
if [ ! -f "$build/kernels/libwarpviz_kernels_cuda.a" ]; then
  echo "gpu-bundle: CMake found no nvcc, so the build has no GPU backend to carry" >&2
  exit 2
fi
rm -rf "$bundle"
mkdir -p "$bundle/cli" "$bundle/tests" "$bundle/kernels" "$bundle/core" "$bundle/lib"
cp "$build/cli/warpviz-cli" "$bundle/cli/"
cp "$build/tests/test_gpu" "$bundle/tests/"
# The kit's paths are relative to it: the same layout, one folder down from the repository.
cp -r "$build/kit" "$bundle/"
# Not the 56 MB precompiled prelude: the GPU machine's g++ would not take it
# (a PCH is only used by the compiler that made it); the prelude compiles as is.
rm -f "$bundle"/kit/include/*.gch
cp "$build"/kernels/libwarpviz_user_*.a "$bundle/kernels/"
cp "$build/core/libwarpviz_core.a" "$bundle/core/"
boost=$(ldd "$bundle/cli/warpviz-cli" | awk '/libboost_context/ {print $3}')
cp -L "$boost" "$bundle/lib/"
du -sh "$bundle"
