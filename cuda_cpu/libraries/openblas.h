// OpenBLAS, which runs cuBLAS's calls on the CPU backend: opened with dlopen
// at the first call that needs it (cublas_cpu.cpp), so a program that only
// creates a handle runs without it, and one that computes without it gets a
// clear message naming the call.
#pragma once

namespace warpviz::user {

// The CBLAS function `symbol` (as "cblas_sgemm"); ends the program with a
// message naming `caller` when OpenBLAS or the function is missing.
void* openblas_function(const char* symbol, const char* caller);

}  // namespace warpviz::user
