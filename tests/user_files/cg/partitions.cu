// Groups made at run time: tiled_partition(block, 4), coalesced_threads() in
// a branch, labeled_partition and binary_partition of a warp's tile, as the
// thread_group they convert to. 64 threads, in = iota.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void partitions(const int* in, int* tiled, int* coalesced, unsigned* coalesced_ballot, int* labeled,
                           int* binary, int* erased) {
  cg::thread_block block = cg::this_thread_block();
  const int i = block.thread_rank();
  const int v = in[i];
  cg::thread_group four = cg::tiled_partition(block, 4);
  tiled[i] = int(four.thread_rank()) + 10 * int(four.size());
  four.sync();
  coalesced[i] = -1;
  coalesced_ballot[i] = 0;
  if (v % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    coalesced[i] = int(active.thread_rank()) + 100 * int(active.size()) + 10000 * active.shfl(v, 2);
    coalesced_ballot[i] = active.ballot(v % 2 == 0);
  }
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::coalesced_group same = cg::labeled_partition(warp, v % 5);
  labeled[i] = int(same.thread_rank()) + 100 * int(same.size());
  cg::coalesced_group side = cg::binary_partition(warp, v % 4 == 1);
  binary[i] = int(side.thread_rank()) + 100 * int(side.size());
  cg::thread_group as_group = side;
  erased[i] = int(as_group.thread_rank()) + 100 * int(as_group.size());
  cg::sync(as_group);
  cg::thread_group whole = block;
  erased[i] += 10000 * int(whole.size()) + 1000000 * int(whole.thread_rank() == unsigned(i));
}
