// warpviz: the data types cuBLAS and the other CUDA libraries name (CUDA's
// library_types.h), with the values the CUDA documentation gives them.
#pragma once

enum cudaDataType_t {
  CUDA_R_16F = 2,
  CUDA_C_16F = 6,
  CUDA_R_16BF = 14,
  CUDA_C_16BF = 15,
  CUDA_R_32F = 0,
  CUDA_C_32F = 4,
  CUDA_R_64F = 1,
  CUDA_C_64F = 5,
  CUDA_R_8I = 3,
  CUDA_C_8I = 7,
  CUDA_R_8U = 8,
  CUDA_C_8U = 9,
  CUDA_R_32I = 10,
  CUDA_C_32I = 11,
  CUDA_R_32U = 12,
  CUDA_C_32U = 13,
};
using cudaDataType = cudaDataType_t;

// Which number of a library's version cuRAND's and cuBLAS's GetProperty give.
enum libraryPropertyType_t {
  MAJOR_VERSION = 0,
  MINOR_VERSION = 1,
  PATCH_LEVEL = 2,
};
using libraryPropertyType = libraryPropertyType_t;
