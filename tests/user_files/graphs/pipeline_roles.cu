// A block-scope cuda::pipeline of 2 stages between a producer warp and a
// consumer warp, over 5 chunks of 32 ints: the producer must wait in
// producer_acquire for the consumers to release a stage before reusing it,
// and the consumers in consumer_wait for the producer's commit. Each consumer
// lane sums its element of every chunk. Then a thread's own pipeline with
// aligned copies, and a block's cg::memcpy_async with cg::wait.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/pipeline>

namespace cg = cooperative_groups;

constexpr int kStages = 2, kChunks = 5;

__global__ void roles(const int* in, int* sums, int* own, int* whole) {
  __shared__ int ring[kStages][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto block = cg::this_thread_block();
  const int lane = threadIdx.x % 32;
  const bool producer = threadIdx.x >= 32;
  auto pipe = cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
  int sum = 0;
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    const int stage = chunk % kStages;
    if (producer) {
      pipe.producer_acquire();
      cuda::memcpy_async(&ring[stage][lane], &in[chunk * 32 + lane], sizeof(int), pipe);
      pipe.producer_commit();
    } else {
      pipe.consumer_wait();
      sum += ring[stage][lane];
      // The producer may overwrite this stage only after the release.
      ring[stage][lane] = -1;
      pipe.consumer_release();
    }
  }
  if (!producer) sums[lane] = sum;

  // A thread's own pipeline: 16-byte copies, aligned as promised.
  __shared__ alignas(16) int mine[64][4];
  cuda::pipeline<cuda::thread_scope_thread> solo = cuda::make_pipeline();
  solo.producer_acquire();
  cuda::memcpy_async(&mine[threadIdx.x][0], &in[threadIdx.x * 4 % 160], cuda::aligned_size_t<16>(16), solo);
  solo.producer_commit();
  solo.consumer_wait();
  own[threadIdx.x] = mine[threadIdx.x][0] + mine[threadIdx.x][3];
  solo.consumer_release();

  // The block copies 160 ints together; after cg::wait every thread sees all of it.
  __shared__ int all[160];
  cg::memcpy_async(block, all, in, sizeof(int) * 160);
  cg::wait(block);
  whole[threadIdx.x] = all[159 - threadIdx.x];
}

int main() {
  int *in, *sums, *own, *whole;
  cudaMalloc(&in, 160 * sizeof(int));
  cudaMalloc(&sums, 32 * sizeof(int));
  cudaMalloc(&own, 64 * sizeof(int));
  cudaMalloc(&whole, 64 * sizeof(int));
  int host[160];
  for (int i = 0; i < 160; ++i) host[i] = i * 3 + 1;
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);
  roles<<<1, 64>>>(in, sums, own, whole);
  cudaDeviceSynchronize();
  return 0;
}
