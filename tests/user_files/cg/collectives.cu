// cg::reduce and the scans with every built-in operator and a lambda, over a
// tile of 16 and over the coalesced group of the odd lanes. 32 threads,
// in = iota.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__global__ void collectives(const int* in, int* sum, int* low, int* high, unsigned* bits, int* scans, float* fsum,
                            int* odd) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  const int i = block.thread_rank();
  const int v = in[i] * 7 % 11;  // 0 7 3 10 6 2 9 5 1 8 4 0 7 ...
  sum[i] = cg::reduce(tile, v, cg::plus<int>());
  low[i] = cg::reduce(tile, v, cg::less<int>());
  high[i] = cg::reduce(tile, v, cg::greater<int>());
  const unsigned u = 1u << (i % 8) | 0x100u;
  bits[i] = cg::reduce(tile, u, cg::bit_or<unsigned>()) ^ (cg::reduce(tile, u, cg::bit_and<unsigned>()) << 12) ^
            (cg::reduce(tile, u, cg::bit_xor<unsigned>()) << 20);
  const int inclusive = cg::inclusive_scan(tile, v);
  const int exclusive = cg::exclusive_scan(tile, v);
  const int running_max = cg::inclusive_scan(tile, v, [](int a, int b) { return a > b ? a : b; });
  scans[i] = inclusive + 1000 * exclusive + 1000000 * running_max;
  fsum[i] = cg::reduce(tile, float(v) * 0.5f, cg::plus<float>());
  odd[i] = -1;
  if (i % 2 == 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    odd[i] = cg::reduce(g, v, cg::plus<int>()) + 1000 * cg::exclusive_scan(g, v) +
             1000000 * cg::reduce(g, v, [](int a, int b) { return a < b ? a : b; });
  }
}
