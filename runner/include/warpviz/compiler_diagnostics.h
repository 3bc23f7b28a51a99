// The compiler's output about a user's .cu file, read as diagnostics the user
// can act on. A mistake of the user's is often reported inside warpviz's own
// headers, where the CUDA intrinsics are macros onto warpviz::rec:
//
//   record_host.h: In instantiation of 'T warpviz::rec::redux(...) [with T = float; ...]':
//   k.cu:4:19:   required from here
//   record_host.h:146:40: error: static assertion failed: __reduce_*_sync takes int or unsigned
//
// user_diagnostics follows such an error back through its "required from"
// chain and "in expansion of macro" notes to the user's line, and says it in
// CUDA's terms ("__reduce_add_sync takes int or unsigned; you passed float"),
// never naming warpviz's internals (`warpviz::rec::ballot` is `__ballot_sync`).
#pragma once

#include <string>
#include <vector>

namespace warpviz::user {

struct Diagnostic {
  std::string file;
  int line = 0, column = 0;
  std::string severity;  // "error", "warning", "note"
  std::string message;
};

// The compiler's output read as diagnostics: g++'s "k.cu:3:5: error: ..." and
// nvcc's "k.cu(3): error: ..." lines; every other line is left out.
std::vector<Diagnostic> parse_diagnostics(const std::string& output);

struct DiagnosticSources {
  std::string user_file;  // the user's file as the compiler names it (the #line path)
  std::string user_text;  // its text: the intrinsic at an error's column is read from it
  // warpviz's header folders (the kit's): an error inside them is the user's
  // at the line that led there.
  std::vector<std::string> kit_dirs;
  // recorded_intrinsics.h's text: `#define __ballot_sync(...) ::warpviz::rec::ballot(...)`
  // names the intrinsic behind each warpviz::rec function.
  std::string intrinsic_macros;
};

// parse_diagnostics, then each error or warning inside a kit folder moved to
// the user's line that led to it (the macro expansion or the instantiation
// chain in the user's file), messages rewritten in CUDA's words, and notes
// about warpviz's own declarations left out. Errors with no user line to go
// to stay where they are, their wording cleaned the same way.
std::vector<Diagnostic> user_diagnostics(const std::string& output, const DiagnosticSources& sources);

// One message in CUDA's words: `warpviz::rec::F` named by its intrinsic (or
// `macro` when given), `warpviz::cg::` as `cooperative_groups::`, a "did you
// mean" that could only name an internal left out.
std::string without_internal_names(const std::string& message, const std::string& intrinsic_macros,
                                   const std::string& macro = "");

}  // namespace warpviz::user
