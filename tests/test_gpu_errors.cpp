// What a GPU does where a kernel goes wrong, and the names nvcc gives, in a
// user's whole program on the CPU emulator. A kernel's invalid access ends
// its launch with cudaErrorIllegalAddress, which the next call that waits for
// the device returns (not cudaGetLastError just after the launch), every
// call after it too, until cudaDeviceReset; the runner's note names the line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "warpviz/user_file.h"
#include "warpviz/warp_scheduler.h"

using namespace warpviz;
using namespace warpviz::user;
namespace fs = std::filesystem;

namespace {

const std::string kFaults = std::string(WARPVIZ_TEST_USER_FILES) + "/faults";

FileRun run_program(const std::string& path) {
  FileRequest request;
  request.path = path;
  request.backend = FileBackend::Cpu;
  request.time_limit_s = 60;
  return run_user_file(request);
}

// Runs with the working folder at `folder`, as a user in it would.
struct InFolder {
  fs::path before = fs::current_path();
  explicit InFolder(const fs::path& folder) { fs::current_path(folder); }
  ~InFolder() { fs::current_path(before); }
};

std::string program_part(const std::string& output) {
  const size_t summary = output.find("\nlaunch 0:");
  return summary == std::string::npos ? output : output.substr(0, summary + 1);
}

}  // namespace

TEST_CASE("an illegal address ends the launch and the program meets it as on a GPU", "[user][faults]") {
  const FileRun run = run_program(kFaults + "/illegal_address.cu");
  INFO(run.message << run.compiler_output << run.program_output);
  if (!warpviz::emu::lands_memory_faults()) {
    // Under AddressSanitizer a fault stays a crash report, at the line.
    CHECK(run.outcome == FileOutcome::Crash);
    CHECK(run.message.find("illegal_address.cu:11") != std::string::npos);
    return;
  }
  REQUIRE(run.ok());
  std::ifstream gpu_file(std::string(WARPVIZ_SOURCE_DIR) + "/tests/h200_probes/faults/illegal_address.out");
  std::stringstream gpu;
  gpu << gpu_file.rdbuf();
  REQUIRE_FALSE(gpu.str().empty());
  CHECK(program_part(run.program_output) == gpu.str());
  // The note: one past the 256 bytes, by thread 0 of a block, at line 11.
  CHECK(run.kernel_faulted);
  REQUIRE_FALSE(run.notes.empty());
  CHECK(run.notes[0].find("0 bytes past the end of the dynamic shared memory (extern __shared__, 256 bytes") !=
        std::string::npos);
  CHECK(run.notes[0].find("thread (0,0,0)") != std::string::npos);
  CHECK(run.notes[0].find("illegal_address.cu:11") != std::string::npos);
  CHECK(run.notes[0].find("cudaErrorIllegalAddress") != std::string::npos);
}

TEST_CASE("__FILE__ in a header beside the file is the name nvcc gives it", "[user][compile]") {
  SECTION("the file named without a folder") {
    InFolder here(kFaults + "/file_macro");
    const FileRun run = run_program("main.cu");
    INFO(run.message << run.compiler_output);
    REQUIRE(run.ok());
    CHECK(program_part(run.program_output) == "main.cu check.h\n");
  }
  SECTION("the file named with its folder") {
    InFolder here(kFaults);
    const FileRun run = run_program("file_macro/main.cu");
    INFO(run.message << run.compiler_output);
    REQUIRE(run.ok());
    CHECK(program_part(run.program_output) == "file_macro/main.cu file_macro/check.h\n");
  }
}
