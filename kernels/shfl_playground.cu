/**
 * The shuffle playground: one shuffle, every knob exposed. Scenario shfl.
 *
 * Try width 12 (undefined in the C++ API, defined by the PTX formula), args
 * beyond 31 (only 5 bits reach the hardware), partial masks and inactive
 * lanes (reads from them are undefined and marked), or a raw PTX c operand.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

enum ShflOp { SHFL_IDX = 0, SHFL_UP = 1, SHFL_DOWN = 2, SHFL_XOR = 3 };

// shfl.sync with the c operand given directly, as PTX inline assembly would:
//     shfl.sync.{idx|up|down|bfly}.b32  d|p, a, b, c, membermask;
// warpviz::rec::shfl_ptx issues exactly that (and records it), returning p too.
template <typename T>
__device__ T ptx_shfl(int op, unsigned mask, T v, unsigned b, unsigned c, int* in_range) {
    const warpviz::Op ops[] = {warpviz::Op::ShflIdx, warpviz::Op::ShflUp, warpviz::Op::ShflDown, warpviz::Op::ShflXor};
    bool p = false;
    T d = warpviz::rec::shfl_ptx(__LINE__, ops[op], mask, v, b, c, &p);
    *in_range = p ? 1 : 0;
    return d;
}

template <typename T>
__global__ void shfl_playground(const T* input, T* out, int* in_range, int op, long long arg, int width,
                                unsigned mask, unsigned active, int raw_c, unsigned c) {
    int lane = threadIdx.x % 32;
    T v = input[lane];
    T r = v;
    in_range[lane] = 0;
    if (active & (1u << lane)) {          // lanes outside `active` take no part
        if (raw_c) {
            r = ptx_shfl(op, mask, v, unsigned(arg), c, &in_range[lane]);
        } else if (op == SHFL_IDX) {
            r = __shfl_sync(mask, v, int(arg), width);
        } else if (op == SHFL_UP) {
            r = __shfl_up_sync(mask, v, unsigned(arg), width);
        } else if (op == SHFL_DOWN) {
            r = __shfl_down_sync(mask, v, unsigned(arg), width);
        } else {
            r = __shfl_xor_sync(mask, v, int(arg), width);
        }
    }
    out[lane] = r;
}

// ==================== 主机端: what warpviz-cli runs ====================
template <typename T>
void run_shfl(warpviz::Session& s) {
    const std::string& op_name = s.param("op");
    const int op = op_name == "idx" ? SHFL_IDX : op_name == "up" ? SHFL_UP : op_name == "down" ? SHFL_DOWN : SHFL_XOR;
    const unsigned mask = s.param_mask("mask");
    const unsigned active = s.param("active") == "mask" ? mask : s.param_mask("active");
    const bool raw_c = s.param("c") != "auto";
    const unsigned c = raw_c ? s.param_mask("c") : 0u;
    auto input = s.input<T>();
    auto out = s.alloc<T>(32);
    auto in_range = s.alloc<int>(32);
    s.launch(shfl_playground<T>, dim3{1}, dim3{32}, input.ptr(), out.ptr(), in_range.ptr(), op,
             (long long)s.param_int("arg"), int(s.param_int("width")), mask, active, int(raw_c), c);
    s.output("out", out);
    if (raw_c) s.output("in_range", in_range);
}

// What resolving a shfl request adds: the raw c operand and `active` in hex,
// and notes on the values the C++ API leaves undefined.
void add_shfl_notes(warpviz::ResolvedScenario& r) {
    using warpviz::DType;
    const warpviz::ParamValues& p = r.params;
    const int64_t width = p.get_int("width");
    const int64_t arg = p.get_int("arg");
    if (p.get("c") != "auto") {
        const auto c = warpviz::parse_hex(DType::U32, p.get("c"));
        if (!c) throw warpviz::ScenarioError("shfl: c=" + p.get("c") + ": not a hex c operand (e.g. 0x181f), or auto");
        r.params.values["c"] = warpviz::format_hex(DType::U32, *c);
        r.notes.push_back("raw PTX shfl.sync with c = " + r.params.values["c"] + "; width is ignored");
    } else if (!(width >= 1 && width <= 32 && (width & (width - 1)) == 0)) {
        const uint32_t segmask = uint32_t(((32 - width) << 8) >> 8) & 0x1f;
        const char* const digits = "0123456789abcdef";
        const std::string hex = std::string("0x") + (segmask >= 16 ? "1" : "") + digits[segmask & 15];
        r.notes.push_back("width " + std::to_string(width) +
                          " is undefined in the CUDA C++ API (it must be 1, 2, 4, 8, 16 or 32); the hardware applies "
                          "the PTX formula anyway: c = ((32 - width) << 8) | clamp gives segmask " + hex);
    }
    const uint32_t b5 = uint32_t(arg) & 31;
    if (arg < 0 || arg > 31)
        r.notes.push_back("arg " + std::to_string(arg) + ": shfl.sync uses only the low 5 bits of b, so it acts as " +
                          std::to_string(b5));
    const std::string& active = p.get("active");
    if (active != "mask") {
        const auto a = warpviz::parse_hex(DType::U32, active);
        if (!a) throw warpviz::ScenarioError("shfl: active=" + active + ": not a lane mask, or 'mask'");
        r.params.values["active"] = warpviz::format_hex(DType::U32, *a);
        const uint32_t mask = p.get_mask("mask");
        if (*a & ~mask)
            r.notes.push_back("lanes " + warpviz::format_hex(DType::U32, *a & ~mask) +
                              " execute a shuffle whose mask leaves them out: undefined, marked in the trace");
    }
}

// ==================== The scenario ====================
static const warpviz::ScenarioRegistrar shfl_scenario =
    warpviz::ScenarioDeclaration("shfl", 50)
        .summary("one shuffle: the playground for edge cases (widths, masks, args beyond 31, raw PTX c)",
                 "单次 shuffle：试验边界情况（width、mask、超过 31 的参数、原始 PTX 的 c）")
        .source("kernels/shfl_playground.cu", "shfl_playground")
        .param(warpviz::choice_param("op", "down", {"idx", "up", "down", "xor"}, "shuffle variant"))
        .param(warpviz::int_param("arg", "1", INT32_MIN, UINT32_MAX,
                                  "srcLane / delta / laneMask (only 5 bits reach the hardware)"))
        .param(warpviz::int_param("width", "32", INT32_MIN, INT32_MAX,
                                  "width; 1,2,4,8,16,32 are defined, others follow the PTX formula"))
        .param(warpviz::text_param("c", "auto", "raw PTX c operand (hex); auto builds it from width"))
        .param(warpviz::mask_param("mask", "member mask passed to the shuffle"))
        .param(warpviz::text_param("active", "mask", "lanes that execute the shuffle (a mask, or 'mask')"))
        .input("iota", warpviz::one_warp)
        .check(add_shfl_notes)
        .run<int, unsigned, warpviz::device_f32, warpviz::device_f64>([](warpviz::Session& s, auto value) {
            run_shfl<typename decltype(value)::type>(s);
        });
