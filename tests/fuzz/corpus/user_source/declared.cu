// A file that declares its scenario in full, as the built-in kernel files do:
// a parameter with a range, two value types, an input, and host code.
#include "warpviz/session.h"

template <typename T>
__global__ void scale_add(const T* in, T* out, int factor) {
    T v = in[threadIdx.x] * T(factor);
    v += __shfl_xor_sync(0xffffffff, v, 1);
    out[threadIdx.x] = v;
}

static const warpviz::ScenarioRegistrar scale_add_scenario =
    warpviz::ScenarioDeclaration("scale_add", 1)
        .summary("every lane scales its value, then adds its xor-1 partner's")
        .source("declared.cu", "scale_add")
        .param(warpviz::int_param("factor", "3", 1, 100, "the scale"))
        .input("iota", warpviz::one_warp)
        .run<int, float>([](warpviz::Session& s, auto value) {
            using T = typename decltype(value)::type;
            auto in = s.input<T>();
            auto out = s.alloc<T>(32);
            s.launch(scale_add<T>, dim3{1}, dim3{32}, in.ptr(), out.ptr(), int(s.param_int("factor")));
            s.output("out", out);
        });
