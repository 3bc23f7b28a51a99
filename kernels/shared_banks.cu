/**
 * CUDA Warp 级编程 (seeds/001), the bank-conflict section: tile[32][32]
 * against tile[32][33]. Scenarios bank and transpose.
 *
 * Shared memory is 32 banks of 4-byte words: bank = (byte address / 4) % 32.
 * One warp-wide access costs a wavefront per distinct word in its busiest
 * bank (docs/warp-rules.md#wavefronts). A column of tile[32][32] is 32 words 128
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

// ==================== What resolving a request checks ====================
// A non-negative integer, decimal or 0x hex.
std::optional<uint64_t> parse_offset(const std::string& text) {
    using warpviz::DType;
    if (text.empty() || text[0] == '-' || text[0] == '+') return std::nullopt;
    if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) return warpviz::parse_hex(DType::U64, text);
    return warpviz::parse_value(DType::U64, text);
}

// addrs: exactly 32 byte offsets, each a multiple of elem inside the tile;
// written back in decimal.
void check_bank_params(warpviz::ResolvedScenario& r) {
    using warpviz::ScenarioError;
    const warpviz::ParamValues& p = r.params;
    const bool custom = p.get("pattern") == "custom";
    const std::string addrs = p.get("addrs");
    if (!custom && !addrs.empty())
        throw ScenarioError("bank: addrs=... is only read with pattern=custom (pattern is " + p.get("pattern") + ")");
    if (!custom) return;
    if (addrs.empty()) throw ScenarioError("bank: pattern=custom needs addrs=a0,a1,...,a31 (32 byte offsets)");
    const int64_t elem = p.get_int("elem");
    const int64_t tile_bytes = 32 * p.get_int("cols") * elem;
    std::vector<std::string> items;
    for (size_t start = 0;;) {
        const size_t comma = addrs.find(',', start);
        items.push_back(addrs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (items.size() != size_t(warpviz::kWarpSize))
        throw ScenarioError("bank: addrs has " + std::to_string(items.size()) +
                            " offsets; it takes exactly 32 (one byte offset per lane, comma-separated)");
    std::string normal;
    for (size_t lane = 0; lane < items.size(); ++lane) {
        const std::string where = "bank: addrs: lane " + std::to_string(lane) + "'s offset '" + items[lane] + "'";
        const auto v = parse_offset(items[lane]);
        if (!v) throw ScenarioError(where + " is not a non-negative integer (decimal or 0x hex)");
        if (int64_t(*v % uint64_t(elem)) != 0)
            throw ScenarioError(where + " is not a multiple of elem=" + std::to_string(elem));
        if (*v >= uint64_t(tile_bytes))
            throw ScenarioError(where + " is outside the tile (" + std::to_string(tile_bytes) + " bytes: 32 x cols=" +
                                p.get("cols") + " x elem=" + std::to_string(elem) + ")");
        normal += (lane ? "," : "") + std::to_string(*v);
    }
    r.params.values["addrs"] = normal;
}

void check_transpose_params(warpviz::ResolvedScenario& r) {
    const int64_t n = r.params.get_int("n");
    if (n % 32 != 0) throw warpviz::ScenarioError("transpose: n=" + std::to_string(n) + ": must be a multiple of 32");
}

// ==================== The article's claims ====================
const char* const kBankArticle = "seeds/001 (Bank Conflict)";
const char* const kBankArticleZh = "seeds/001（Bank 冲突一节）";

// Whether the run's parameters are these (name, value) pairs.
std::function<bool(const warpviz::ParamValues&)> params_are(std::vector<std::pair<std::string, std::string>> wanted) {
    return [wanted = std::move(wanted)](const warpviz::ParamValues& p) {
        for (const auto& [name, value] : wanted) {
            const auto it = p.values.find(name);
            if (it == p.values.end() || it->second != value) return false;
        }
        return true;
    };
}

warpviz::SeedClaim shared_claim(std::string text, std::string op, int wavefronts, int conflicts,
                                std::function<bool(const warpviz::ParamValues&)> applies) {
    warpviz::SeedClaim c;
    c.source = kBankArticle;
    c.source_zh = kBankArticleZh;
    c.text = std::move(text);
    c.shared_op = std::move(op);
    c.wavefronts = wavefronts;
    c.conflicts = conflicts;
    c.applies = std::move(applies);
    return c;
}

// "跨步为奇数通常安全；跨步 32 的倍数必冲突": odd strides are usually safe,
// multiples of 32 always conflict (stride in elements of 4 bytes). The rule
// is about lanes on different words: with stride 0, or a stride of a whole
// tile, every lane wraps onto element 0 (a broadcast), which is not its case.
std::function<bool(const warpviz::ParamValues&)> stride_is(bool (*test)(int64_t)) {
    return [test, whole = params_are({{"pattern", "stride"}, {"elem", "4"}, {"active", "0xffffffff"}})](
               const warpviz::ParamValues& p) {
        // Parameters may come from a trace file: cols is looked at only once known good.
        if (!whole(p) || (p.get("cols") != "32" && p.get("cols") != "33")) return false;
        const int64_t stride = p.get_int("stride");
        return stride % (warpviz::kWarpSize * p.get_int("cols")) != 0 && test(stride);
    };
}

warpviz::SeedClaim stride_multiple_of_32_claim() {
    warpviz::SeedClaim c = shared_claim("跨步 32 的倍数必冲突 (a stride that is a multiple of 32 always conflicts)", "",
                                        -1, -1, stride_is([](int64_t s) { return s % 32 == 0; }));
    c.min_conflicts = 1;
    return c;
}

// Lane l stores 100 + l: values that cannot be mistaken for the tile's fill (its index).
std::string bank_default_input() {
    std::string s = "values:";
    for (int lane = 0; lane < warpviz::kWarpSize; ++lane) s += (lane ? "," : "") + std::to_string(100 + lane);
    return s;
}

// ==================== The scenarios: one declaration each ====================
// The article's rules are claims about the one access of `bank` (4-byte
// floats, as the article's tile; its warp is whole: a partial `active` mask is
// another access) and the column reads of `transpose`. The article's ✅ and ❌
// are quoted as ✓ and ×: the app's font has neither (nor ✗).
static const warpviz::ScenarioRegistrar bank_scenario =
    warpviz::ScenarioDeclaration("bank", 160)
        .summary("one warp, one shared-memory access to T tile[32][cols]: wavefronts and bank conflicts",
                 "一个 warp 对 T tile[32][cols] 做一次共享内存访问：wavefront 数与 bank 冲突")
        .source("kernels/shared_banks.cu", "bank_kernel")
        .param(warpviz::choice_param("pattern", "column", {"row", "column", "broadcast", "stride", "xor-swizzle", "custom"},
                                     "lane l's element: row tile[0][l], column tile[l][0], broadcast tile[0][0], stride "
                                     "element l*stride, xor-swizzle tile[l][l], custom addrs[l]"))
        .param(warpviz::int_param("stride", "2", 0, 1 << 20, "elements between lanes, for pattern=stride"))
        .param(warpviz::choice_param("elem", "4", {"1", "2", "4", "8", "16"}, "element size in bytes (the access width)"))
        .param(warpviz::choice_param("cols", "32", {"32", "33"}, "the tile's row length (33: one element of padding)"))
        .param(warpviz::choice_param("op", "load", {"load", "store"}, "the access: a load, or a store of the input"))
        .param(warpviz::mask_param("active", "lanes that make the access"))
        .param(warpviz::text_param("addrs", "", "pattern=custom: 32 byte offsets a0,...,a31"))
        .input(bank_default_input(), warpviz::one_warp)
        .dtype_of([](const warpviz::ParamValues& p) {
            return p.get_int("elem") >= 8 ? warpviz::DType::U64 : warpviz::DType::U32;
        })
        .check(check_bank_params)
        .claim(shared_claim("tile[threadIdx.y][threadIdx.x] // ✓ 每线程一列，各打各的 bank (conflict-free)", "", 1, 0,
                            params_are({{"pattern", "row"}, {"elem", "4"}, {"active", "0xffffffff"}})))
        .claim(shared_claim("float v = tile[threadIdx.x][0]; // × 32 个线程打同一个 bank → 32 路冲突 (32-way)", "", 32,
                            31, params_are({{"pattern", "column"}, {"cols", "32"}, {"elem", "4"}, {"active", "0xffffffff"}})))
        .claim(shared_claim("float v2 = tileP[threadIdx.x][0]; // ✓ 相邻线程差 33 个 float，落不同 bank", "", 1, 0,
                            params_are({{"pattern", "column"}, {"cols", "33"}, {"elem", "4"}, {"active", "0xffffffff"}})))
        .claim(shared_claim("跨步为奇数通常安全 (an odd stride is usually safe)", "", 1, 0,
                            stride_is([](int64_t s) { return s % 2 == 1; })))
        .claim(stride_multiple_of_32_claim())
        .shows_tile("cols")
        .times_bank_cost()
        .run([](warpviz::Session& s) {
            switch (s.param_int("elem")) {
                case 1: run_bank<unsigned char>(s); break;
                case 2: run_bank<unsigned short>(s); break;
                case 4: run_bank<unsigned>(s); break;
                case 8: run_bank<uint2>(s); break;
                case 16: run_bank<uint4>(s); break;
                default: throw warpviz::ScenarioError("bank: elem=" + s.param("elem") + " has no host code; it runs 1, 2, 4, 8, 16");
            }
        });

static const warpviz::ScenarioRegistrar transpose_scenario =
    warpviz::ScenarioDeclaration("transpose", 170)
        .summary("the classic tile transpose: rows into a shared tile, columns out (cols 33: padded)",
                 "经典的分块转置：按行写入共享 tile，按列读出（cols 33：填充）")
        .source("kernels/shared_banks.cu", "transpose_kernel")
        .param(warpviz::int_param("n", "64", 32, 512, "matrix side (a multiple of 32)"))
        .param(warpviz::choice_param("cols", "32", {"32", "33"}, "the tile's row length (33: one float of padding)"))
        .input("iota", [](const warpviz::ParamValues& p) { return size_t(p.get_int("n")) * size_t(p.get_int("n")); })
        .check(check_transpose_params)
        .claim(shared_claim("tile[threadIdx.y][threadIdx.x] // ✓ 各打各的 bank: the row writes", "st.shared", 1, 0, {}))
        .claim(shared_claim("tile[threadIdx.x][0] // × 32 路冲突: the column reads of tile[32][32]", "ld.shared", 32, 31,
                            params_are({{"cols", "32"}})))
        .claim(shared_claim("tileP[threadIdx.x][0] // ✓ 落不同 bank: the column reads of tile[32][33]", "ld.shared", 1,
                            0, params_are({{"cols", "33"}})))
        .shows_tile("cols")
        .run<float>([](warpviz::Session& s, auto) { run_transpose(s); });
