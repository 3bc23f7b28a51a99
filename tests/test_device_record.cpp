// The GPU recorder's compact device record (device_recorder.h), decoded on the
// host by CudaRecording::decode_step. No GPU needed: each step of emulator
// traces is laid out as record_device.cuh's record_step lays it out (values in
// rows of lane words, the per-lane bits as ballots in the header), decoded,
// and must come back as the very same TraceStep. test_gpu then checks on a GPU
// that the device writes that layout (every GPU trace equals the emulator's).
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "warpviz/backends.h"
#include "warpviz/cuda_recording.h"
#include "warpviz/scenario.h"

using namespace warpviz;

namespace {

struct DeviceStep {
  DeviceStepHeader header;
  std::vector<uint32_t> rows = std::vector<uint32_t>(kDeviceRowsPerStep * kWarpSize, 0xa5a5a5a5u);
};

// Whether record_step finds a shuffle's lanes all reading what the rule
// names (then it writes kSrcByRule instead of the ballots).
bool source_lanes_by_rule(const TraceStep& s) {
  if (!op_is_shuffle(s.op)) return false;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = s.lanes[lane];
    if (!l.active()) continue;
    const uint32_t b = (s.step_flags & kStepPerLaneOperand) ? l.addr : uint32_t(s.args.b);
    const rules::ShflSelection rule = rules::shfl_select(s.op, lane, b, s.args.c);
    if (rule.src != l.src || rule.in_range != l.ok()) return false;
  }
  return true;
}

// What record_step writes for a step whose lanes hold these records: the lanes
// that ran write their words, the group leader the header. by_rule: a shuffle
// the device found following the rule (else its ballots).
DeviceStep as_the_device_writes_it(const TraceStep& s, bool by_rule) {
  DeviceStep d;
  DeviceStepHeader& h = d.header;
  h.block = s.block;
  h.warp = uint8_t(s.warp);
  h.line = s.line;
  h.mask = s.mask;
  h.op = uint8_t(s.op);
  h.dtype = uint8_t(s.dtype);
  h.step_flags = s.step_flags;
  h.b = s.args.b;
  h.width = s.args.width;
  h.c = s.args.c;
  bool high = false;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = s.lanes[lane];
    if (!l.active()) continue;
    h.active |= 1u << lane;
    if (l.ok() && !by_rule) h.ok |= 1u << lane;
    if (op_is_shuffle(s.op) && !by_rule)
      for (int bit = 0; bit < 5; ++bit) h.src_bits[bit] |= uint32_t((l.src >> bit) & 1) << lane;
    h.bytes = l.bytes;
    high |= ((l.in | l.out) >> 32) != 0;
  }
  const bool addr = op_is_shared(s.op) || (s.step_flags & kStepPerLaneOperand);
  h.rows = uint8_t((addr ? kRowsAddr : 0) | (high ? kRowsHigh : 0) | (by_rule ? kSrcByRule : 0));
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& l = s.lanes[lane];
    if (!l.active()) continue;
    d.rows[kRowIn * kWarpSize + lane] = uint32_t(l.in);
    d.rows[kRowOut * kWarpSize + lane] = uint32_t(l.out);
    if (addr) d.rows[kRowAddr * kWarpSize + lane] = l.addr;
    if (high) {
      d.rows[kRowInHigh * kWarpSize + lane] = uint32_t(l.in >> 32);
      d.rows[kRowOutHigh * kWarpSize + lane] = uint32_t(l.out >> 32);
    }
  }
  return d;
}

struct RoundTrip {
  size_t steps = 0, active_lanes = 0, wide_steps = 0, addr_steps = 0, shuffles = 0, by_rule = 0;
  std::vector<std::string> differences;
};

void round_trip_step(const Trace& t, const TraceStep& original, bool by_rule, RoundTrip& result) {
  const DeviceStep d = as_the_device_writes_it(original, by_rule);
  TraceStep decoded;
  CudaRecording::decode_step(d.header, d.rows.data(), original.seq, decoded);
  ++result.steps;
  result.wide_steps += (d.header.rows & kRowsHigh) != 0;
  result.addr_steps += (d.header.rows & kRowsAddr) != 0;
  const std::string where = t.meta.scenario + " step " + std::to_string(result.steps - 1) + " (" +
                            op_name(original.op) + ")";
  if (decoded.block != original.block || decoded.warp != original.warp || decoded.seq != original.seq ||
      decoded.line != original.line || decoded.mask != original.mask || decoded.op != original.op ||
      decoded.dtype != original.dtype || decoded.step_flags != original.step_flags ||
      decoded.args.b != original.args.b || decoded.args.width != original.args.width ||
      decoded.args.c != original.args.c)
    result.differences.push_back(where + ": header fields");
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const LaneRecord& a = decoded.lanes[lane];
    const LaneRecord& b = original.lanes[lane];
    result.active_lanes += b.active();
    if (!b.active()) {
      if (a.active() || a.in || a.out || a.addr || a.src != -1 || a.flags || a.bytes)
        result.differences.push_back(where + " lane " + std::to_string(lane) + ": an idle lane is not empty");
      continue;
    }
    if (a.in != b.in || a.out != b.out || a.addr != b.addr || a.src != b.src || a.flags != b.flags ||
        a.bytes != b.bytes)
      result.differences.push_back(where + " lane " + std::to_string(lane) + ": in " + std::to_string(a.in) + "/" +
                                   std::to_string(b.in) + " out " + std::to_string(a.out) + "/" +
                                   std::to_string(b.out) + " src " + std::to_string(a.src) + "/" +
                                   std::to_string(b.src) + " flags " + std::to_string(a.flags) + "/" +
                                   std::to_string(b.flags));
  }
}

void round_trip(const Trace& t, RoundTrip& result) {
  for (const TraceStep& original : t.steps) {
    // A shuffle both ways: by its ballots, and by the rule when the device would.
    round_trip_step(t, original, false, result);
    if (!op_is_shuffle(original.op)) continue;
    ++result.shuffles;
    if (source_lanes_by_rule(original)) {
      ++result.by_rule;
      round_trip_step(t, original, true, result);
    }
  }
}

Trace emulated(const std::string& scenario, std::vector<std::pair<std::string, std::string>> sets,
               const std::string& input = "") {
  return run_scenario_cpu(resolve_scenario({scenario, std::move(sets), input}), emu::RecordFilter{});
}

}  // namespace

TEST_CASE("device record: every scenario's steps survive the compact layout bit for bit", "[recorder]") {
  // Prepare: every scenario on its defaults, plus 64-bit shuffles, undefined
  // reads, per-lane operands and shared accesses of every width
  std::vector<Trace> traces;
  for (const ScenarioSpec& spec : scenario_specs()) traces.push_back(emulated(spec.name, {}));
  traces.push_back(emulated("shfl", {{"dtype", "f64"}, {"op", "idx"}, {"arg", "7"}}, "random:3"));
  traces.push_back(emulated("shfl", {{"dtype", "i32"}, {"mask", "0x0000ffff"}, {"active", "0x00ff00ff"}}));
  traces.push_back(emulated("test_shuffle", {{"dtype", "f64"}}, "random:5"));
  for (const char* elem : {"1", "2", "8", "16"}) traces.push_back(emulated("bank", {{"elem", elem}}));
  // Run
  RoundTrip result;
  for (const Trace& t : traces) round_trip(t, result);
  // Verify
  INFO(result.differences.size() << " differences, the first: "
                                  << (result.differences.empty() ? "" : result.differences.front()));
  CHECK(result.differences.empty());
  CHECK(result.steps > 100);
  CHECK(result.wide_steps > 0);  // the 64-bit rows were exercised
  CHECK(result.addr_steps > 0);  // and the address row
  CHECK(result.shuffles > 0);
  CHECK(result.by_rule > 0);  // shuffles whose source lanes the host computes by the rule
}

TEST_CASE("device record: a 32-bit step writes 8 bytes a lane, 12 with an address, 64-bit ones 16 or 20",
          "[recorder]") {
  CHECK(sizeof(DeviceStepHeader) == 64);
  CHECK(device_step_bytes(0) == 64 + 32 * 8);
  CHECK(device_step_bytes(kRowsAddr) == 64 + 32 * 12);
  CHECK(device_step_bytes(kRowsHigh) == 64 + 32 * 16);
  CHECK(device_step_bytes(kRowsAddr | kRowsHigh) == 64 + 32 * 20);
}

TEST_CASE("device record: a header the recorder cannot have written is refused", "[recorder]") {
  DeviceStepHeader h;
  h.op = uint8_t(kOpCount);
  std::vector<uint32_t> rows(kDeviceRowsPerStep * kWarpSize, 0);
  TraceStep s;
  CHECK_THROWS_AS(CudaRecording::decode_step(h, rows.data(), 0, s), CudaError);
  h.op = 0;
  h.rows = 8;
  CHECK_THROWS_AS(CudaRecording::decode_step(h, rows.data(), 0, s), CudaError);
  h.op = uint8_t(Op::Ballot);  // the rule names source lanes of shuffles only
  h.rows = kSrcByRule;
  CHECK_THROWS_AS(CudaRecording::decode_step(h, rows.data(), 0, s), CudaError);
}
