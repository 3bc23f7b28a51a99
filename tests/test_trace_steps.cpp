// TraceSteps: a trace's steps held encoded (the .wvt step layout) in one arena.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "trace_compare.h"
#include "warpviz/trace.h"
#include "warpviz/trace_io.h"
#include "warpviz/trace_steps.h"

using namespace warpviz;

namespace {

using test::same_step;

struct Shape {
  bool wide = false, memory = false;
};

// A step of `op` and `dtype`, its values 64-bit wide or not, with addresses or
// not; lane 5 undefined, lane 7 inactive, src -1 on even lanes.
TraceStep make_step(Op op, DType dtype, Shape shape, uint32_t seq) {
  TraceStep s;
  s.block = 3;
  s.warp = 1;
  s.seq = seq;
  s.line = 40 + seq;
  s.mask = 0xffffff7fu;
  s.op = op;
  s.dtype = dtype;
  if (op_is_watch(op)) {
    s.args = watch_name_args("partial", 7);
  } else {
    s.args.b = -3 - int64_t(seq);
    s.args.width = 16;
    s.args.c = 0x1f0fu;
    if (op_is_shuffle(op)) s.step_flags = kStepRawOperandC;
  }
  for (int lane = 0; lane < kWarpSize; ++lane) {
    LaneRecord& l = s.lanes[lane];
    const uint64_t high = shape.wide ? uint64_t(lane + 1) << 40 : 0;
    l.in = high | uint64_t(lane * 7 + seq);
    l.out = high | uint64_t(0xfffffff0u + lane);
    l.src = int8_t(lane % 2 ? (lane + 1) % kWarpSize : -1);
    l.flags = lane == 7 ? 0 : kLaneActive | (lane % 3 ? kLaneOk : 0) | (lane == 5 ? kLaneUndefined : 0);
    if (shape.memory || op_is_shared(op)) {
      l.addr = uint32_t(lane * 8);
      l.bytes = 8;
    }
  }
  return s;
}

uint8_t expected_layout(const TraceStep& s, Shape shape) {
  return uint8_t((shape.wide ? step_encoding::kWideValues : 0) |
                 (shape.memory || op_is_shared(s.op) ? step_encoding::kMemory : 0));
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("TraceSteps: every op, dtype and layout reads back as pushed", "[trace][steps]") {
  TraceSteps steps;
  std::vector<TraceStep> pushed;
  std::vector<uint8_t> layouts;
  uint32_t seq = 0;
  for (int op = 0; op < kOpCount; ++op)
    for (int dtype = 0; dtype < kDTypeCount; ++dtype)
      for (Shape shape : {Shape{false, false}, Shape{true, false}, Shape{false, true}, Shape{true, true}}) {
        const TraceStep s = make_step(Op(op), DType(dtype), shape, seq++);
        steps.push_back(s);
        pushed.push_back(s);
        layouts.push_back(expected_layout(s, shape));
      }
  REQUIRE(steps.size() == pushed.size());
  size_t total = 0;
  for (size_t i = 0; i < pushed.size(); ++i) {
    INFO("step " << i << ": " << op_name(pushed[i].op) << " " << dtype_name(pushed[i].dtype));
    REQUIRE(same_step(steps[i], pushed[i]));
    REQUIRE(same_step(steps.at(i), pushed[i]));
    // The encoding the layout says: wide values and memory only where needed.
    CHECK(steps.step_size(i) == step_encoding::step_bytes(layouts[i]));
    total += steps.step_size(i);
    // The header accessors, without a decode.
    CHECK(steps.block(i) == pushed[i].block);
    CHECK(steps.warp(i) == pushed[i].warp);
    CHECK(steps.seq(i) == pushed[i].seq);
    CHECK(steps.line(i) == pushed[i].line);
    CHECK(steps.mask(i) == pushed[i].mask);
    CHECK(steps.op(i) == pushed[i].op);
    CHECK(steps.dtype(i) == pushed[i].dtype);
    CHECK(steps.step_flags(i) == pushed[i].step_flags);
    CHECK(steps.args(i).b == pushed[i].args.b);
    CHECK(steps.args(i).width == pushed[i].args.width);
    CHECK(steps.args(i).c == pushed[i].args.c);
    CHECK(steps.active_lanes(i) == 0xffffff7fu);  // lane 7 did not run
  }
  CHECK(steps.encoded_bytes() == total);
  CHECK(same_step(steps.front(), pushed.front()));
  CHECK(same_step(steps.back(), pushed.back()));
  CHECK_THROWS_AS(steps.at(steps.size()), std::out_of_range);
}

TEST_CASE("TraceSteps: a 32-bit step takes the bytes its encoding says", "[trace][steps]") {
  // 40 header bytes, then per lane in and out (4 bytes each) and src, flags.
  REQUIRE(step_encoding::step_bytes(0) == 40 + 32 * (4 + 4 + 1 + 1));
  TraceSteps steps;
  for (uint32_t i = 0; i < 1000; ++i) steps.push_back(make_step(Op::ShflDown, DType::F32, Shape{}, i));
  CHECK(steps.encoded_bytes() == 1000 * step_encoding::step_bytes(0));
  steps.shrink_to_fit();
  // What the goal counts: arena and offsets, per lane record; 11.5 here.
  const double per_lane_record = double(steps.bytes_in_memory()) / (1000.0 * kWarpSize);
  CHECK(per_lane_record >= (360.0 + 8) / 32);
  CHECK(per_lane_record < 12.0);
  // A step of a memory op carries addr and bytes: 5 bytes more a lane.
  TraceSteps shared;
  shared.push_back(make_step(Op::LoadShared, DType::U32, Shape{}, 0));
  CHECK(shared.step_size(0) == 40 + 32 * 15);
}

TEST_CASE("TraceSteps: what is not stored", "[trace][steps]") {
  TraceStep s = make_step(Op::Ballot, DType::U32, Shape{}, 0);
  s.reserved = 9;
  s.lanes[2].reserved = 4;
  s.lanes[3].flags |= 0x80;  // no LaneFlag: dropped
  TraceSteps steps;
  steps.push_back(s);
  const TraceStep back = steps[0];
  CHECK(back.reserved == 0);
  CHECK(back.lanes[2].reserved == 0);
  CHECK(back.lanes[3].flags == (s.lanes[3].flags & 0x7f));
  s.lanes[3].flags &= 0x7f;
  CHECK(same_step(back, s));
}

TEST_CASE("TraceSteps: set() replaces a step, also one of another size", "[trace][steps]") {
  TraceSteps steps;
  std::vector<TraceStep> expected;
  for (uint32_t i = 0; i < 5; ++i) {
    expected.push_back(make_step(Op::ShflXor, DType::I32, Shape{}, i));
    steps.push_back(expected.back());
  }
  const size_t narrow = steps.encoded_bytes();
  // Step 2 becomes wide with addresses: the steps after it move up.
  expected[2] = make_step(Op::ShflXor, DType::I64, Shape{true, true}, 2);
  steps.set(2, expected[2]);
  CHECK(steps.step_size(2) == step_encoding::step_bytes(step_encoding::kWideValues | step_encoding::kMemory));
  CHECK(steps.encoded_bytes() == narrow - step_encoding::step_bytes(0) + steps.step_size(2));
  for (size_t i = 0; i < 5; ++i) REQUIRE(same_step(steps[i], expected[i]));
  // And narrow again: back to the first size.
  expected[2] = make_step(Op::ShflXor, DType::I32, Shape{}, 2);
  steps.set(2, expected[2]);
  CHECK(steps.encoded_bytes() == narrow);
  for (size_t i = 0; i < 5; ++i) REQUIRE(same_step(steps[i], expected[i]));
  // The same size: in place.
  expected[4].lanes[0].out = 77;
  steps.modify(4, [](TraceStep& s) { s.lanes[0].out = 77; });
  CHECK(same_step(steps[4], expected[4]));
  CHECK_THROWS_AS(steps.set(5, expected[0]), std::out_of_range);
}

TEST_CASE("TraceSteps: iteration, append, truncate, equality", "[trace][steps]") {
  TraceSteps a;
  for (uint32_t i = 0; i < 6; ++i) {
    TraceStep s = make_step(i % 2 ? Op::ShflUp : Op::Watch, DType::F32, Shape{i == 3, false}, i);
    s.block = i / 2;
    a.push_back(s);
  }
  size_t n = 0;
  for (const TraceStep& s : a) {
    CHECK(same_step(s, a[n]));
    ++n;
  }
  CHECK(n == a.size());
  CHECK(a.end() - a.begin() == 6);
  CHECK((*(a.begin() + 3)).seq == 3);
  CHECK(a.begin()[4].seq == 4);
  CHECK((a.end() - 1)->seq == 5);
  // The standard algorithms work on the decoded steps.
  const auto it = std::lower_bound(a.begin(), a.end(), 2u, [](const TraceStep& s, uint32_t b) { return s.block < b; });
  CHECK(it.index() == 4);
  CHECK(std::count_if(a.begin(), a.end(), [](const TraceStep& s) { return op_is_watch(s.op); }) == 3);

  TraceSteps b;
  for (size_t i = 0; i < 2; ++i) b.push_back(a[i]);
  TraceSteps rest;
  for (size_t i = 2; i < a.size(); ++i) rest.push_back(a[i]);
  CHECK(b != a);
  b.append(rest);
  CHECK(b == a);
  CHECK(b.encoded_bytes() == a.encoded_bytes());
  b.modify(5, [](TraceStep& s) { s.lanes[9].in ^= 1; });
  CHECK(b != a);
  b.truncate(5);
  CHECK(b.size() == 5);
  a.truncate(5);
  CHECK(b == a);
  b.clear();
  CHECK(b.empty());
  CHECK(b.encoded_bytes() == 0);
}

TEST_CASE("TraceSteps: a loaded .wvt keeps the file's step bytes", "[trace][steps][io]") {
  Trace t;
  t.meta.scenario = "test";
  t.meta.grid = Dim3(4);
  t.meta.block = Dim3(64);
  uint32_t seq = 0;
  for (Op op : {Op::ShflDown, Op::Ballot, Op::LoadShared, Op::Watch, Op::ReduxAdd})
    for (Shape shape : {Shape{false, false}, Shape{true, false}}) {
      TraceStep s = make_step(op, op_is_shared(op) ? DType::U64 : DType::I64, shape, seq++);
      if (op_is_shared(op)) s.lanes[7].addr = s.lanes[7].bytes = 0;  // an inactive lane takes no part
      t.steps.push_back(s);
    }
  t.outputs.push_back(TraceOutput{"out", DType::I32, {1, 2, 3}});
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("warpviz_steps_" + std::to_string(::getpid()) + ".wvt");
  save_trace(t, path.string());
  const std::string file = read_file(path.string());
  const Trace back = load_trace(path.string());
  std::filesystem::remove(path);

  REQUIRE(back.steps.size() == t.steps.size());
  CHECK(back.steps == t.steps);
  for (size_t i = 0; i < t.steps.size(); ++i) REQUIRE(same_step(back.steps[i], t.steps[i]));
  // The steps are the file's last part before the 8-byte checksum, byte for byte.
  REQUIRE(file.size() > t.steps.encoded_bytes() + 8);
  CHECK(back.steps.encoded_bytes() == t.steps.encoded_bytes());
  CHECK(std::memcmp(file.data() + file.size() - 8 - t.steps.encoded_bytes(), back.steps.encoded_data(),
                    t.steps.encoded_bytes()) == 0);
  // Steps added after the load go after the file's.
  Trace more = back;
  more.steps.push_back(t.steps[0]);
  CHECK(more.steps.size() == t.steps.size() + 1);
  CHECK(same_step(more.steps.back(), t.steps[0]));
  CHECK(same_step(more.steps[t.steps.size() - 1], t.steps.back()));
  more.steps.shrink_to_fit();  // drops the file's bytes before the steps
  CHECK(more.steps.encoded_bytes() == back.steps.encoded_bytes() + more.steps.step_size(t.steps.size()));
  CHECK(more.steps.bytes_in_memory() ==
        more.steps.encoded_bytes() + more.steps.capacity() * sizeof(uint64_t));
  for (size_t i = 0; i < t.steps.size(); ++i) REQUIRE(same_step(more.steps[i], t.steps[i]));
  // And written again, the same file.
  const std::filesystem::path again = path.string() + ".2.wvt";
  save_trace(back, again.string());
  CHECK(read_file(again.string()) == file);
  std::filesystem::remove(again);
}
