// nvcc's compile model, on the one host-compiler pass the CPU emulator gets.
//
// nvcc compiles a .cu file twice: a device pass with __CUDA_ARCH__ defined
// (900 for sm_90) and a host pass without it; a .cpp file goes to the host
// compiler alone. warpviz compiles each file once, so it decides per place
// in the file which pass that place belongs to (README, "nvcc's compile
// model"):
//   the body of a __global__ or __device__ function   the device pass: 900
//   file scope, namespaces, classes                    the device pass: 900
//   the body of any other function (__host__,
//   __host__ __device__, plain)                        the host pass: undefined
//   every line of a .cpp file                          the host pass: undefined
// File scope takes the device view because that is what code there chooses
// for: a __device__ helper kept under `#if __CUDA_ARCH__ >= 700` (which the
// kernel calls from its own `#if` body), or `#include <cuda/barrier>` under one.
#pragma once

#include <string>

namespace warpviz::user {

enum class UnitLanguage {
  Cuda,  // .cu: both passes
  Cpp,   // .cpp, .cc, .cxx, .c: host code only
};

// By the file's extension, as nvcc chooses.
UnitLanguage unit_language(const std::string& path);

// The macros nvcc defines, as #define lines for the top of a unit (after the
// kit's prelude, whose headers test __CUDACC__ to tell nvcc from g++):
// __CUDACC__ and __CUDA_ARCH__ for .cu units only; __NVCC__ and
// CUDA_VERSION (13.0) for both. CUDART_VERSION and cuda_runtime.h's guards
// come with the prelude's runtime header (user_runtime.h).
std::string nvcc_predefined_macros(UnitLanguage language);

// `#include` lines for the warpviz headers the text includes itself
// (`warpviz/session.h` in a file that declares its scenarios), to come before
// nvcc_predefined_macros: warpviz's own headers read __CUDACC__ as "nvcc is
// compiling this for a GPU", so they must be read before it is defined.
std::string warpviz_headers_first(const std::string& text);

// The text with every `__CUDA_ARCH__` in an #if, #elif, #ifdef or #ifndef
// inside a host function's body made to read as undefined (`#ifdef` ->
// `#if 0`, `defined(__CUDA_ARCH__)` -> 0, `__CUDA_ARCH__` -> 0), line for
// line; the rest sees the 900 that nvcc_predefined_macros defines.
std::string cuda_arch_for_host_bodies(const std::string& text);

}  // namespace warpviz::user
