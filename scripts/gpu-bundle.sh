#!/usr/bin/env bash
# Builds what scripts/gpu-check.sh runs, here (nvcc needed, no GPU), and puts
# it in one small folder to carry to a GPU machine that has no Debian
# packages: the CLI, the GPU tests, libboost_context, and the kit a user's
# .cu file is compiled against (kit/, with the static libraries it names).
# And the desktop app for the `frames` section (warpviz --offscreen through
# the GPU driver's EGL): bin/warpviz, its assets, shaders and font where an
# installed binary looks for them (share/warpviz), and the shared libraries
# it needs that a bare machine lacks in lib/. glvnd's GL loaders (libEGL,
# libOpenGL, libGL, libGLX, libGLdispatch) are left out: they come as Debian
# packages in .gl (scripts/gpu-gl-debs.sh), unpacked there by gpu-check.sh.
#   scripts/gpu-bundle.sh [BUNDLE_DIR]     (default build-gpu; then, there:
#   scripts/gpu-check.sh build-gpu RESULTS_DIR)
#   scripts/gpu-bundle.sh --app-only [BUNDLE_DIR]
#       adds the app to a bundle (or makes one of it alone) from an existing
#       build, $WARPVIZ_APP_BUILD_DIR (default build), without CUDA.
# WARPVIZ_BUNDLE_APP=OFF leaves the app out.
set -euo pipefail
cd "$(dirname "$0")/.."
app_only=0
if [ "${1:-}" = --app-only ]; then app_only=1; shift; fi
bundle=${1:-build-gpu}
build=${WARPVIZ_BUILD_DIR:-build-device}
with_app=${WARPVIZ_BUNDLE_APP:-ON}

# bundle_app BUILD: bin/, share/warpviz/ and lib/ from BUILD/app/warpviz.
bundle_app() {
  local from=$1
  mkdir -p "$bundle/bin" "$bundle/share/warpviz/assets/fonts" "$bundle/lib"
  # Without debug information: a RelWithDebInfo build's binary is mostly that.
  strip --strip-debug -o "$bundle/bin/warpviz" "$from/app/warpviz"
  cp -r shaders "$bundle/share/warpviz/"
  cp -r assets/. "$bundle/share/warpviz/assets/"
  local font=/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
  [ -f "$font" ] && cp "$font" "$bundle/share/warpviz/assets/fonts/"
  # What the loader resolves beyond the C and C++ runtimes and glvnd's GL
  # loaders, under its soname, so LD_LIBRARY_PATH=lib finds it.
  local skip='^(ld-linux.*|linux-vdso.*|libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|libEGL|libGL|libGLX|libGLdispatch|libOpenGL|libGLESv2)\.so'
  ldd "$from/app/warpviz" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | while read -r soname path; do
    [[ $soname =~ $skip ]] || cp -L "$path" "$bundle/lib/$soname"
  done
  echo "gpu-bundle: the app and $(ls "$bundle/lib" | wc -l) libraries in $bundle/lib: $(ls "$bundle/lib" | tr '\n' ' ')"
}

if [ $app_only = 1 ]; then
  app_build=${WARPVIZ_APP_BUILD_DIR:-build}
  [ -x "$app_build/app/warpviz" ] || { echo "gpu-bundle: $app_build/app/warpviz not built" >&2; exit 2; }
  bundle_app "$app_build"
  # The frames section makes its big trace with the CLI.
  if [ ! -x "$bundle/cli/warpviz-cli" ]; then
    mkdir -p "$bundle/cli"
    strip --strip-debug -o "$bundle/cli/warpviz-cli" "$app_build/cli/warpviz-cli"
  fi
  du -sh "$bundle"
  exit 0
fi

targets=(warpviz-cli test_gpu warpviz_user_kit)
[ "$with_app" = ON ] && targets+=(warpviz)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPVIZ_BUILD_APP="$with_app" >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
if [ ! -f "$build/gpu_recorder/libwarpviz_kernels_cuda.a" ]; then
  echo "gpu-bundle: CMake found no nvcc, so the build has no GPU backend to carry" >&2
  exit 2
fi
rm -rf "$bundle"
mkdir -p "$bundle/cli" "$bundle/tests" "$bundle/user_programs" "$bundle/cuda_cpu" "$bundle/core" "$bundle/lib"
cp "$build/cli/warpviz-cli" "$bundle/cli/"
cp "$build/tests/test_gpu" "$bundle/tests/"
# The kit's paths are relative to it: the same layout, one folder down from the repository.
cp -r "$build/kit" "$bundle/"
# Not the 56 MB precompiled prelude: the GPU machine's g++ would not take it
# (a PCH is only used by the compiler that made it); the prelude compiles as is.
rm -f "$bundle"/kit/include/*.gch
cp "$build/user_programs/libwarpviz_user_common.a" "$bundle/user_programs/"
cp "$build"/cuda_cpu/libwarpviz_{user_runtime,emulator}.a "$bundle/cuda_cpu/"
cp "$build/core/libwarpviz_core.a" "$bundle/core/"
boost=$(ldd "$bundle/cli/warpviz-cli" | awk '/libboost_context/ {print $3}')
cp -L "$boost" "$bundle/lib/"
[ "$with_app" = ON ] && bundle_app "$build"
du -sh "$bundle"
