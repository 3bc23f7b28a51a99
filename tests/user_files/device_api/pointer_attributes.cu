// cudaPointerGetAttributes on each kind of memory, and cudaLaunchKernel from a
// file that includes cuda_runtime.h alone (no cooperative_groups.h).
#include <cuda_runtime.h>
#include <cstdio>

__global__ void twice(int* out, int v) { out[threadIdx.x] = 2 * v; }

int main() {
  int* device = nullptr;
  int* pinned = nullptr;
  int on_stack = 0;
  cudaMalloc(&device, 32 * sizeof(int));
  cudaMallocHost(&pinned, 32 * sizeof(int));
  cudaPointerAttributes a{}, b{}, c{}, d{};
  cudaPointerGetAttributes(&a, device + 5);
  cudaPointerGetAttributes(&b, pinned);
  cudaPointerGetAttributes(&c, &on_stack);
  const cudaError_t null_attributes = cudaPointerGetAttributes(nullptr, device);
  int v = 21;
  void* args[] = {&device, &v};
  const cudaError_t launched = cudaLaunchKernel((void*)twice, dim3(1), dim3(32), args, 0, nullptr);
  cudaMemcpy(pinned, device, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaPointerGetAttributes(&d, pinned + 31);
  printf("device_type %x\ndevice_pointer_same %x\npinned_type %x\nstack_type %x\nnull_attributes %x\n",
         unsigned(a.type), unsigned(a.devicePointer == device + 5), unsigned(b.type), unsigned(c.type),
         unsigned(null_attributes));
  printf("launch_kernel %x\nlaunched_value %x\npinned_end_type %x\n", unsigned(launched), unsigned(pinned[31]),
         unsigned(d.type));
  cudaFreeHost(pinned);
  cudaFree(device);
  return 0;
}
