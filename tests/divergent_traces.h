// Hand-built traces of one warp that splits at a branch on lane parity, for
// the diff and path tests: the same steps and results path by path, recorded
// in an order given as path letters ("ABAB": the emulator's turns, "AABB" or
// "BBAA": one path to its end first, as a GPU may run them).
#pragma once

#include <string>

#include "warpviz/trace.h"

namespace warpviz::test {

constexpr uint32_t kEvenLanes = 0x55555555u, kOddLanes = 0xaaaaaaaau;
constexpr uint32_t kForkLine = 10, kEvenLine = 12, kOddLine = 15, kJoinLine = 20;

inline TraceStep ballot_step(uint32_t line, uint32_t lanes, uint32_t salt) {
  TraceStep s;
  s.line = line;
  s.mask = lanes;
  s.op = Op::Ballot;
  s.dtype = DType::I32;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!((lanes >> lane) & 1u)) continue;
    s.lanes[lane].flags = kLaneActive;
    s.lanes[lane].in = (uint32_t(lane) * 7u + salt) & 1u;
    s.lanes[lane].out = lanes & (0x9e3779b9u * (salt + 1));  // each step its own result
  }
  return s;
}

inline TraceStep shuffle_step(uint32_t line, uint32_t lanes, uint32_t salt) {
  TraceStep s;
  s.line = line;
  s.mask = lanes;
  s.op = Op::ShflXor;
  s.dtype = DType::I32;
  s.args.b = 2;
  s.args.c = 0x1f;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!((lanes >> lane) & 1u)) continue;
    s.lanes[lane].flags = kLaneActive | kLaneOk;
    s.lanes[lane].src = int8_t(lane ^ 2);
    s.lanes[lane].in = uint32_t(lane) * 100u + salt;
    s.lanes[lane].out = uint32_t(lane ^ 2) * 100u + salt;
  }
  return s;
}

// Fork (every lane), the two paths' two steps each in `order`, join.
inline Trace parity_branch_trace(const std::string& order, const std::string& backend) {
  Trace t;
  t.meta.scenario = "hand_built";
  t.meta.backend = backend;
  t.meta.grid = Dim3(1);
  t.meta.block = Dim3(32);
  t.steps.push_back(ballot_step(kForkLine, 0xffffffffu, 0));
  int taken_a = 0, taken_b = 0;
  for (char path : order) {
    if (path == 'A')
      t.steps.push_back(taken_a++ == 0 ? shuffle_step(kEvenLine, kEvenLanes, 1) : ballot_step(kEvenLine + 1, kEvenLanes, 2));
    else
      t.steps.push_back(taken_b++ == 0 ? shuffle_step(kOddLine, kOddLanes, 3) : ballot_step(kOddLine + 1, kOddLanes, 4));
  }
  t.steps.push_back(ballot_step(kJoinLine, 0xffffffffu, 5));
  for (size_t i = 0; i < t.steps.size(); ++i) t.steps.modify(i, [&](TraceStep& s) { s.seq = uint32_t(i); });
  t.outputs.push_back(TraceOutput{"out", DType::U32, std::vector<uint64_t>(32, 7)});
  return t;
}

}  // namespace warpviz::test
