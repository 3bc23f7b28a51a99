// Every method of a thread_block_tile<8>, lane by lane: 64 threads are 8
// tiles. in[i] is the input (iota: in[i] = i).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void tile_methods(const int* in, int* shfl, int* up, int* down, int* xr, int* votes, unsigned* ballot,
                             unsigned* match_any, unsigned* match_all, int* ranks) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  const int i = block.thread_rank();
  const int v = in[i];
  shfl[i] = tile.shfl(v, 5);
  up[i] = tile.shfl_up(v, 3);
  down[i] = tile.shfl_down(v, 2);
  xr[i] = tile.shfl_xor(v, 6);
  votes[i] = tile.any(v == 9) * 1 + tile.all(v < 60) * 2 + tile.all(v % 2 == 0) * 4;
  ballot[i] = tile.ballot(v % 3 == 0);
  match_any[i] = tile.match_any(v / 3);
  int pred = 0;
  match_all[i] = tile.match_all(v / 8, pred) | (unsigned(pred) << 16);
  ranks[i] = int(tile.thread_rank()) + 10 * int(tile.meta_group_rank()) + 100 * int(tile.meta_group_size()) +
             1000 * int(tile.num_threads());
  tile.sync();
}
