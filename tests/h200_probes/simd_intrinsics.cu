// The CUDA Math API's SIMD intrinsics (__vadd2 .. __vsetne4) on sixteen words
// chosen for their parts' edges (0, -1, the most negative and positive
// halfwords and bytes, mixed signs): every unary one on each word, every
// binary one on each pair. Inputs come from device memory, so nvcc cannot
// fold them. Each line printed is "name a b -> result" in hex. Run on a GPU
// by scripts/h200-probes.sh; simd_intrinsics.out beside it is the reference
// that the CPU emulator's run of this file must equal, line for line.
#include <cstdio>

constexpr int kWords = 16;
constexpr int kBinary = 62;  // binary functions, each a name below

#define UNARY(f) out[n++] = f(a)
#define BINARY(f) out[n++] = f(a, b)

__global__ void unary_cases(const unsigned* words, unsigned* out) {
  const unsigned a = words[threadIdx.x];
  out += threadIdx.x * 8;
  int n = 0;
  UNARY(__vabs2); UNARY(__vabs4); UNARY(__vabsss2); UNARY(__vabsss4);
  UNARY(__vneg2); UNARY(__vneg4); UNARY(__vnegss2); UNARY(__vnegss4);
}

__global__ void binary_cases(const unsigned* words, unsigned* out) {
  const unsigned a = words[threadIdx.x / kWords], b = words[threadIdx.x % kWords];
  out += threadIdx.x * kBinary;
  int n = 0;
  BINARY(__vadd2); BINARY(__vadd4); BINARY(__vaddss2); BINARY(__vaddss4); BINARY(__vaddus2); BINARY(__vaddus4);
  BINARY(__vsub2); BINARY(__vsub4); BINARY(__vsubss2); BINARY(__vsubss4); BINARY(__vsubus2); BINARY(__vsubus4);
  BINARY(__vabsdiffs2); BINARY(__vabsdiffs4); BINARY(__vabsdiffu2); BINARY(__vabsdiffu4);
  BINARY(__vavgs2); BINARY(__vavgs4); BINARY(__vavgu2); BINARY(__vavgu4); BINARY(__vhaddu2); BINARY(__vhaddu4);
  BINARY(__vmaxs2); BINARY(__vmaxs4); BINARY(__vmaxu2); BINARY(__vmaxu4);
  BINARY(__vmins2); BINARY(__vmins4); BINARY(__vminu2); BINARY(__vminu4);
  BINARY(__vsads2); BINARY(__vsads4); BINARY(__vsadu2); BINARY(__vsadu4);
  BINARY(__vcmpeq2); BINARY(__vcmpeq4); BINARY(__vcmpne2); BINARY(__vcmpne4);
  BINARY(__vcmpges2); BINARY(__vcmpges4); BINARY(__vcmpgeu2); BINARY(__vcmpgeu4);
  BINARY(__vcmpgts2); BINARY(__vcmpgts4); BINARY(__vcmpgtu2); BINARY(__vcmpgtu4);
  BINARY(__vcmples2); BINARY(__vcmples4); BINARY(__vcmpleu2); BINARY(__vcmpleu4);
  BINARY(__vcmplts2); BINARY(__vcmplts4); BINARY(__vcmpltu2); BINARY(__vcmpltu4);
  BINARY(__vseteq2); BINARY(__vseteq4); BINARY(__vsetne2); BINARY(__vsetne4);
  BINARY(__vsetges2); BINARY(__vsetgts4); BINARY(__vsetltu2); BINARY(__vsetleu4);
}

int main() {
  const unsigned words[kWords] = {0x00000000u, 0xffffffffu, 0x80008000u, 0x7fff7fffu, 0x80808080u, 0x7f7f7f7fu,
                                  0x01020304u, 0xfffefdfcu, 0x12345678u, 0x9abcdef0u, 0x00ff00ffu, 0xff00ff00u,
                                  0x7fff8000u, 0x80017ffeu, 0x55aa55aau, 0xdeadbeefu};
  const char* unary_names[8] = {"vabs2", "vabs4", "vabsss2", "vabsss4", "vneg2", "vneg4", "vnegss2", "vnegss4"};
  const char* binary_names[kBinary] = {
      "vadd2", "vadd4", "vaddss2", "vaddss4", "vaddus2", "vaddus4", "vsub2", "vsub4", "vsubss2", "vsubss4",
      "vsubus2", "vsubus4", "vabsdiffs2", "vabsdiffs4", "vabsdiffu2", "vabsdiffu4", "vavgs2", "vavgs4", "vavgu2",
      "vavgu4", "vhaddu2", "vhaddu4", "vmaxs2", "vmaxs4", "vmaxu2", "vmaxu4", "vmins2", "vmins4", "vminu2",
      "vminu4", "vsads2", "vsads4", "vsadu2", "vsadu4", "vcmpeq2", "vcmpeq4", "vcmpne2", "vcmpne4", "vcmpges2",
      "vcmpges4", "vcmpgeu2", "vcmpgeu4", "vcmpgts2", "vcmpgts4", "vcmpgtu2", "vcmpgtu4", "vcmples2", "vcmples4",
      "vcmpleu2", "vcmpleu4", "vcmplts2", "vcmplts4", "vcmpltu2", "vcmpltu4", "vseteq2", "vseteq4", "vsetne2",
      "vsetne4", "vsetges2", "vsetgts4", "vsetltu2", "vsetleu4"};
  unsigned *d_words, *d_unary, *d_binary;
  cudaMalloc(&d_words, sizeof words);
  cudaMalloc(&d_unary, kWords * 8 * sizeof(unsigned));
  cudaMalloc(&d_binary, kWords * kWords * kBinary * sizeof(unsigned));
  cudaMemcpy(d_words, words, sizeof words, cudaMemcpyHostToDevice);
  unary_cases<<<1, kWords>>>(d_words, d_unary);
  binary_cases<<<1, kWords * kWords>>>(d_words, d_binary);
  static unsigned unary[kWords * 8], binary[kWords * kWords * kBinary];
  cudaMemcpy(unary, d_unary, sizeof unary, cudaMemcpyDeviceToHost);
  cudaMemcpy(binary, d_binary, sizeof binary, cudaMemcpyDeviceToHost);
  for (int w = 0; w < kWords; ++w)
    for (int f = 0; f < 8; ++f) printf("%s %08x -> %08x\n", unary_names[f], words[w], unary[w * 8 + f]);
  for (int p = 0; p < kWords * kWords; ++p)
    for (int f = 0; f < kBinary; ++f)
      printf("%s %08x %08x -> %08x\n", binary_names[f], words[p / kWords], words[p % kWords], binary[p * kBinary + f]);
  return 0;
}
