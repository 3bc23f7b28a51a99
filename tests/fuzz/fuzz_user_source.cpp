// libFuzzer target: reading a user's .cu file as text (runner's user_source.h):
// the kernel signatures scan_user_source finds, and the host compiler's
// rewrite. None of it may throw on odd text, and everything keeps the file's
// lines where they were, since the compiler's messages point at them.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string>
#include <typeinfo>

#include "fuzz_common.h"
#include "warpviz/nvcc_compile_model.h"
#include "warpviz/user_source.h"

using namespace warpviz;
using namespace warpviz::user;

namespace {

size_t newlines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

bool identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

void check(const std::string& text) {
  const std::string code = code_only(text);
  if (code.size() != text.size()) fuzz::finding("code_only changed the length");
  for (size_t i = 0; i < text.size(); ++i)
    if ((text[i] == '\n') != (code[i] == '\n')) fuzz::finding("code_only moved a newline");

  // A folder that does not exist: local includes resolve to nothing here.
  const UserSource src = scan_user_source("/nonexistent-warpviz-fuzz/user.cu", text);
  const int lines = int(newlines(text)) + 1;
  for (size_t k = 0; k < src.kernels.size(); ++k) {
    const KernelDecl& kernel = src.kernels[k];
    if (!identifier(kernel.name)) fuzz::finding("kernel name '" + kernel.name + "' is no identifier");
    if (kernel.line < 1 || kernel.line > lines) fuzz::finding("kernel line " + std::to_string(kernel.line));
    if (kernel_base_name(kernel.name) != kernel.name) fuzz::finding("kernel_base_name changed a plain name");
    for (size_t j = 0; j < k; ++j)
      if (src.kernels[j].name == kernel.name) fuzz::finding("kernel '" + kernel.name + "' listed twice");
    for (const KernelParamText& p : kernel.params)
      if (!identifier(p.name)) fuzz::finding("parameter name '" + p.name + "' is no identifier");
  }

  if (newlines(rewrite_for_host(text)) != newlines(text)) fuzz::finding("rewrite_for_host moved lines");
  if (newlines(rewrite_launches(text)) != newlines(text)) fuzz::finding("rewrite_launches moved lines");
  if (newlines(cuda_arch_for_host_bodies(text)) != newlines(text)) fuzz::finding("cuda_arch_for_host_bodies moved lines");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    check(text);
  } catch (const std::exception& e) {
    fuzz::finding(std::string("reading a .cu file threw ") + typeid(e).name() + ": " + e.what());
  }
  return 0;
}
