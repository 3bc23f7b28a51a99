// The kernel files compiled for the GPU; each registers its scenarios' host code.
#pragma once

#include "warpviz/cuda_session.h"

namespace warpviz {

void register_warp_shuffle_scenarios_cuda(RunnerTable& runners);
void register_warp_reduce_int_scenarios_cuda(RunnerTable& runners);
void register_shfl_playground_scenarios_cuda(RunnerTable& runners);
void register_warp_vote_scenarios_cuda(RunnerTable& runners);
void register_match_redux_scenarios_cuda(RunnerTable& runners);
void register_cooperative_groups_scenarios_cuda(RunnerTable& runners);
void register_bits_scenarios_cuda(RunnerTable& runners);
void register_shared_banks_scenarios_cuda(RunnerTable& runners);

}  // namespace warpviz
