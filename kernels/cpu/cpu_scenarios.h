// The kernel files compiled for the CPU; each registers its scenarios' host code.
#pragma once

#include "warpviz/host_session.h"

namespace warpviz {

void register_warp_shuffle_scenarios(RunnerTable& runners);
void register_warp_reduce_int_scenarios(RunnerTable& runners);
void register_shfl_playground_scenarios(RunnerTable& runners);
void register_warp_vote_scenarios(RunnerTable& runners);
void register_match_redux_scenarios(RunnerTable& runners);
void register_cooperative_groups_scenarios(RunnerTable& runners);
void register_bits_scenarios(RunnerTable& runners);
void register_shared_banks_scenarios(RunnerTable& runners);

}  // namespace warpviz
