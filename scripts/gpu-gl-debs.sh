#!/usr/bin/env bash
# Run here once, before carrying the bundle to a GPU machine: downloads the
# Debian 12 packages of the GL loaders (glvnd's libEGL.so.1, libGLdispatch,
# libOpenGL.so.0, libGL.so.1, libGLX.so.0) that a bare GPU machine lacks and
# warpviz --offscreen loads, into .gl/ (ignored by git, never committed).
# There, scripts/gpu-check.sh's `frames` section unpacks them with dpkg -x when
# libEGL.so.1 is missing; the NVIDIA driver brings the EGL vendor library.
#   scripts/gpu-gl-debs.sh        (then carry .gl and the bundle: see gpu-check.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libegl1 libglvnd0 libopengl0 libgl1 libglx0)
mkdir -p .gl /tmp/amd64/partial
# amd64 whatever this machine is: the GPU machine is x86-64. A lists folder of
# its own, so this machine's apt state is left as it is.
o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
apt-get "${o[@]}" update
(cd .gl && apt-get "${o[@]}" download "${packages[@]}")
ls -l .gl/*.deb
