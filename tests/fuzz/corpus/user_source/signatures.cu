// Signatures the scanner must read: attributes, templates, defaults, unnamed
// parameters, raw strings and digit separators around them.
#include "missing_header.h"
const char* doc = R"x(__global__ void not_a_kernel(int a) {})x";
template <typename T, int N = 1'024>
__global__ void __launch_bounds__(256, 2) scan(const T* __restrict__ in, T* out, int n = (N >> 1), unsigned) {
  extern __shared__ __align__(16) T tile[];
  tile[threadIdx.x] = in[threadIdx.x] << 1;
}
__global__ void proto(float*, int);
__global__ void empty(void) {}
struct S { int v = 3 >= 2; };
__global__ void pick(S s = S{}, bool flag = 1 == 1, const char c = '}') {}
int main() {
  scan<float, 256><<<dim3(2, 1), 256, 256 * sizeof(float)>>>(nullptr, nullptr);
  ns::empty<<<1, (32 > 16 ? 32 : 16)>>>();
}
