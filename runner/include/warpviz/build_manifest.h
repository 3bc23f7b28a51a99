// What a cached program was built from: every file the compiler read (its
// own -MMD list, not a scan of ours) and every file the assembler pulled in
// with .incbin, each with a hash of its content at build time. An entry of
// the program cache (program_cache.h) is used only while all of them still
// hash the same, so a header included through a macro, a -I folder or
// another header counts as much as the .cu file itself.
//
// manifest.json, beside the program:
//   {"version": 1, "program": "<hash>",
//    "dependencies": [{"path": "/abs/h.h", "hash": "<hash>"}, ...]}
// A hash is XXH3-128 as 32 hex digits; "" stands for a file that was missing
// (an .incbin target that does not exist yet is an input too).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace warpviz::user {

// XXH3-128 of the bytes, 32 hex digits.
std::string content_hash(const std::string& bytes);
// The hash of a file's content; "" when it cannot be read.
std::string file_content_hash(const std::string& path);

// The prerequisites of a make rule as gcc -MMD -MF writes it ("t: a b",
// long lines continued with a backslash): continuations joined, "\ " read
// as a space, "\#" as '#', "$$" as '$'. Only the first rule counts; nullopt
// when there is none.
std::optional<std::vector<std::string>> parse_make_rule(const std::string& text);

// The file names `.incbin "name"` asks for, in C or C++ text (where the asm
// string's quotes are written \") or in assembly.
std::vector<std::string> incbin_names(const std::string& text);

struct ManifestDependency {
  std::string path;
  std::string hash;  // "" for a file that was missing
};

struct BuildManifest {
  std::string program_hash;
  std::vector<ManifestDependency> dependencies;
};

std::string manifest_json(const BuildManifest& manifest);
// nullopt, and `error` saying why, for text that is no manifest of ours.
std::optional<BuildManifest> read_manifest(const std::string& text, std::string* error = nullptr);

// The first dependency whose content is no longer the one listed; nullopt
// when every one still matches (the program is exactly what they build).
std::optional<std::string> changed_dependency(const BuildManifest& manifest);

}  // namespace warpviz::user
