// Each lane divides its own dividend by its own divisor; every fourth lane's
// divisor is 0. Inputs come from device memory, so nothing folds at compile
// time. Prints "lane q r uq ur lq lr ulq" in hex, one lane a line.
#include <cstdint>
#include <cstdio>

__global__ void divide(const int* a, const int* b, const long long* la, const long long* lb, uint64_t* out) {
  const int lane = threadIdx.x;
  const int x = a[lane], d = b[lane];
  const long long lx = la[lane], ld = lb[lane];
  uint64_t* o = out + 7 * lane;
  o[0] = uint32_t(x / d);
  o[1] = uint32_t(x % d);
  o[2] = unsigned(x) / unsigned(d);
  o[3] = unsigned(x) % unsigned(d);
  o[4] = uint64_t(lx / ld);
  o[5] = uint64_t(lx % ld);
  o[6] = uint64_t(lx) / uint64_t(ld);
}

int main() {
  constexpr int n = 32;
  int a[n], b[n];
  long long la[n], lb[n];
  for (int k = 0; k < n; ++k) {
    a[k] = (k % 3 == 0 ? -1 : 1) * (1000 + 37 * k);
    b[k] = k % 4 == 0 ? 0 : (k % 4) - 2 + (k % 4 == 2 ? 5 : 0);  // 0, -1, 5, 1
    la[k] = k % 8 == 4 ? 0x123456789ll * k : a[k];
    lb[k] = b[k];
  }
  a[1] = -2147483647 - 1;  // INT_MIN / -1 in lane 1
  int *da, *db;
  long long *dla, *dlb;
  uint64_t* dout;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dla, sizeof la);
  cudaMalloc(&dlb, sizeof lb);
  cudaMalloc(&dout, 7 * n * sizeof(uint64_t));
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(dla, la, sizeof la, cudaMemcpyHostToDevice);
  cudaMemcpy(dlb, lb, sizeof lb, cudaMemcpyHostToDevice);
  divide<<<1, n>>>(da, db, dla, dlb, dout);
  uint64_t out[7 * n];
  cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
  for (int k = 0; k < n; ++k) {
    std::printf("%d", k);
    for (int j = 0; j < 7; ++j) std::printf(" %llx", static_cast<unsigned long long>(out[7 * k + j]));
    std::printf("\n");
  }
  return 0;
}
