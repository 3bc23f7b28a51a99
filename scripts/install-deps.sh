#!/usr/bin/env bash
# Installs the Debian 12 packages warpviz builds with, when they are missing.
# Nothing is downloaded at build time; everything comes from apt.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  gcc-12-plugin-dev      # cuda_cpu/compiler_plugin: the GPU's division, shifts and conversions in device code
  libopenblas-dev        # cuBLAS of users' programs on the CPU (cublas_cpu.cpp dlopens libopenblas.so.0)
  libboost-context-dev   # fibers for the CPU emulator's CUDA threads
  catch2                 # tests (2.13, with Catch.cmake)
  nlohmann-json3-dev     # the trace's JSON form
  libtoml11-dev          # lesson files (TOML)
  libxxhash-dev          # the .wvt checksum (XXH3-64)
  libglfw3-dev libimgui-dev python3-glad libstb-dev  # the app
  fonts-wqy-microhei     # the app's font: Latin and Chinese (the seeds' language)
  xvfb xauth             # GUI tests without a display (xvfb-run needs xauth)
  libgl1-mesa-dri        # Mesa's software GL, so Xvfb offers GLX / OpenGL 3.3
  libegl-dev             # warpviz --offscreen: a headless GL context through EGL (Mesa's or a GPU driver's)
  ffmpeg                 # --export OUT.mp4/.webm/.gif, and ffprobe for its tests
  librsvg2-bin           # rsvg-convert: the SVG export test renders each op's SVG (Chromium, when present, too)
  clang libclang-rt-14-dev  # the libFuzzer targets (tests/fuzz, scripts/fuzz.sh)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo_cmd=(sudo); else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
