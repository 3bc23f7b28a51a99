/**
 * CUDA Warp 级编程 (seeds/001), the bank-conflict section: tile[32][32]
 * against tile[32][33]. Scenarios bank and transpose.
 *
 * Shared memory is 32 banks of 4-byte words: bank = (byte address / 4) % 32.
 * One warp-wide access costs a wavefront per distinct word in its busiest
 * bank (warp-semantics.md §4.2). A column of tile[32][32] is 32 words 128
 * bytes apart, all in one bank: 32 wavefronts. One word of padding per row,
 * tile[32][33], moves row r's column 0 to bank r: one wavefront.
 *
 * WARPVIZ_LOAD / WARPVIZ_STORE are the recorded accesses: one LDS/STS each,
 * and the element's byte offset from the start of its tile goes in the trace.
 */
#include "warpviz/record.cuh"
#include "warpviz/session.h"

#include <cstring>
#include <string>
#include <vector>

enum BankPattern { ROW = 0, COLUMN, BROADCAST, STRIDE, XOR_SWIZZLE, CUSTOM };

// An element whose first 4-byte word is `first` and whose other words are
// `rest` (1- and 2-byte elements keep first's low bytes).
template <typename T>
__host__ __device__ T element_with_words(unsigned first, unsigned rest) {
    unsigned words[4] = {first, rest, rest, rest};
    T v;
    memcpy(&v, words, sizeof(T));
    return v;
}

// A lane's input value as an element: its low bytes; a 16-byte element holds
// the 8 bytes twice.
template <typename T>
__device__ T element_from_input(unsigned long long bits) {
    unsigned long long both[2] = {bits, bits};
    T v;
    memcpy(&v, both, sizeof(T));
    return v;
}

// The element lane `lane` touches, by pattern.
template <typename T, int COLS>
__device__ T& pattern_element(T (&tile)[32][COLS], int pattern, int lane, int stride, const unsigned* addrs) {
    switch (pattern) {
        case ROW:         return tile[0][lane];                 // 32 neighbours in one row
        case COLUMN:      return tile[lane][0];                 // one column: COLS elements apart
        case BROADCAST:   return tile[0][0];                    // everyone reads one word
        case STRIDE: {
            int e = lane * stride % (32 * COLS);                // every stride-th element
            return tile[e / COLS][e % COLS];
        }
        case XOR_SWIZZLE: return tile[lane][(0 ^ lane) % COLS]; // column 0 of a tile stored at [row][col ^ row]
        default: {
            int e = int(addrs[lane] / sizeof(T));               // custom: each lane's byte offset
            return tile[e / COLS][e % COLS];
        }
    }
}

// One warp, one access. `out` gets each active lane's loaded (or stored)
// element as 4-byte words, `tile_words` the whole tile afterwards.
template <typename T, int COLS>
__global__ void bank_kernel(const T* fill, const unsigned long long* input, unsigned* out, unsigned* tile_words,
                            int pattern, int stride, const unsigned* addrs, int store, unsigned active) {
    __shared__ __align__(128) T tile[32][COLS];
    int lane = threadIdx.x;
    warpviz::fill_shared(tile, fill, sizeof tile);   // element i's first word is i (its low bytes, below 4-byte elements); no LDS/STS
    __syncthreads();

    if ((active >> lane) & 1) {                       // inactive lanes skip the access
        T& element = pattern_element(tile, pattern, lane, stride, addrs);
        T v = element_from_input<T>(input[lane]);       // what a store writes
        if (store)
            WARPVIZ_STORE(tile, element, v);
        else
            v = WARPVIZ_LOAD(tile, element);
        memcpy(&out[lane * ((sizeof(T) + 3) / 4)], &v, sizeof(T));
    }
    warpviz::save_shared(tile_words, tile, sizeof tile);  // after a __syncthreads; no LDS either
}

// The classic transpose through a shared tile: a block of 32 x 8 threads moves
// one 32 x 32 tile, each thread 4 rows. Rows go in (conflict-free), columns
// come out: 32-way conflicts with COLS 32, none with COLS 33.
template <int COLS>
__global__ void transpose_kernel(const float* in, float* out, int n) {
    __shared__ __align__(128) float tile[32][COLS];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        WARPVIZ_STORE(tile, tile[threadIdx.y + j][threadIdx.x], in[(y + j) * n + x]);
    __syncthreads();

    x = blockIdx.y * 32 + threadIdx.x;               // the transposed tile's place
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        out[(y + j) * n + x] = WARPVIZ_LOAD(tile, tile[threadIdx.x][threadIdx.y + j]);
}

// ==================== 主机端: what warpviz-cli runs ====================
int bank_pattern(const std::string& name) {
    const char* names[] = {"row", "column", "broadcast", "stride", "xor-swizzle", "custom"};
    for (int p = 0; p < 6; ++p)
        if (name == names[p]) return p;
    return COLUMN;
}

// addrs=a0,...,a31 (the registry checked them and wrote them in decimal).
std::vector<unsigned> custom_addrs(const std::string& text) {
    std::vector<unsigned> addrs(32, 0);
    size_t at = 0;
    for (int lane = 0; lane < 32 && at < text.size(); ++lane) {
        addrs[lane] = unsigned(std::stoul(text.substr(at)));
        at = text.find(',', at);
        if (at == std::string::npos) break;
        ++at;
    }
    return addrs;
}

template <typename T, int COLS>
void run_bank_tile(warpviz::Session& s) {
    std::vector<T> fill(32 * COLS);
    for (size_t i = 0; i < fill.size(); ++i) fill[i] = element_with_words<T>(unsigned(i), 0);
    const int pattern = bank_pattern(s.param("pattern"));
    auto fill_d = s.upload(fill);
    auto input = s.input<unsigned long long>();       // lane l stores input[l]
    auto addrs = s.upload(pattern == CUSTOM ? custom_addrs(s.param("addrs")) : std::vector<unsigned>(32, 0));
    auto out = s.alloc<unsigned>(32 * ((sizeof(T) + 3) / 4));
    auto tile_words = s.alloc<unsigned>(32 * COLS * sizeof(T) / 4);
    s.launch(bank_kernel<T, COLS>, dim3{1}, dim3{32}, fill_d.ptr(), input.ptr(), out.ptr(), tile_words.ptr(),
             pattern, int(s.param_int("stride")), addrs.ptr(), int(s.param("op") == "store"),
             s.param_mask("active"));
    s.output("out", out);
    s.output("tile", tile_words);
}

template <typename T>
void run_bank(warpviz::Session& s) {
    if (s.param("cols") == "33")
        run_bank_tile<T, 33>(s);
    else
        run_bank_tile<T, 32>(s);
}

void run_transpose(warpviz::Session& s) {
    const int n = int(s.param_int("n"));
    auto in = s.input<float>();
    auto out = s.alloc<float>(size_t(n) * n);
    const dim3 grid{unsigned(n / 32), unsigned(n / 32)}, block{32, 8};
    if (s.param("cols") == "33")
        s.launch(transpose_kernel<33>, grid, block, in.ptr(), out.ptr(), n);
    else
        s.launch(transpose_kernel<32>, grid, block, in.ptr(), out.ptr(), n);
    s.output("out", out);
}

void register_scenarios(warpviz::RunnerTable& runners) {
    runners["bank"] = [](warpviz::Session& s) {
        switch (s.param_int("elem")) {
            case 1: run_bank<unsigned char>(s); break;
            case 2: run_bank<unsigned short>(s); break;
            case 8: run_bank<uint2>(s); break;
            case 16: run_bank<uint4>(s); break;
            default: run_bank<unsigned>(s); break;
        }
    };
    runners["transpose"] = run_transpose;
}
