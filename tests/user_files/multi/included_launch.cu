// A program whose launches are in a header it includes, as HeCBench's btree
// includes map/host.cu: the header is rewritten as the file itself is.
#include <cstdio>

#include "launches/host_side.cuh"

int main() {
  int* values = nullptr;
  cudaMallocManaged(&values, 32 * sizeof(int));
  fill_then_double(values, 20);
  std::printf("values %d %d\n", values[0], values[31]);
  return 0;
}
