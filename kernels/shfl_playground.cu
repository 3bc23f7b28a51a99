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

void register_scenarios(warpviz::RunnerTable& runners) {
    runners["shfl"] = [](warpviz::Session& s) {
        switch (s.dtype()) {
            case warpviz::DType::U32: run_shfl<unsigned>(s); break;
            case warpviz::DType::F32: run_shfl<warpviz::device_f32>(s); break;
            case warpviz::DType::F64: run_shfl<warpviz::device_f64>(s); break;
            default: run_shfl<int>(s); break;
        }
    };
}
