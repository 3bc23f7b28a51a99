// A lesson file reloaded on save (view/lesson_file.h), as the app polls it:
// a file edited on disk shows its new caption or slide, a save that does not
// load keeps the last good lesson and says why, and the slide after a reload
// runs again only when it runs something else.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "warpviz/view/lesson_file.h"

using namespace warpviz::view;
namespace fs = std::filesystem;

namespace {

// A lesson file in a folder of its own, removed afterwards.
struct LessonOnDisk {
  fs::path dir = fs::temp_directory_path() /
                 ("warpviz_lesson_" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::path path = dir / "lesson.toml";
  LessonOnDisk() { fs::create_directories(dir); }
  ~LessonOnDisk() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  // Writes `text` and moves the file's time forward by `seconds`, as a save a
  // moment later does (file times may be coarser than the test is quick).
  void save(const std::string& text, int seconds = 0) {
    const bool existed = fs::exists(path);
    const fs::file_time_type before = existed ? fs::last_write_time(path) : fs::file_time_type{};
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    if (existed) fs::last_write_time(path, before + std::chrono::seconds(seconds));
  }
};

std::string slide(const std::string& scenario, const std::string& caption, int start = 1) {
  return "[[slide]]\nscenario = \"" + scenario + "\"\nstart = " + std::to_string(start) + "\ncaption = \"" + caption +
         "\"\n";
}

}  // namespace

TEST_CASE("a lesson edited on disk reloads with its new caption and slides", "[lesson][reload]") {
  LessonOnDisk disk;
  disk.save(slide("warp_sum", "first words") + slide("vote", "a ballot"));
  LessonFile file;
  file.open(disk.path.string());
  REQUIRE(file.loaded());
  REQUIRE(file.lesson().slides.size() == 2);
  CHECK(file.lesson().slides[0].caption == "first words");
  CHECK(file.poll(0.0) == LessonFile::Poll::Unchanged);  // nothing saved yet

  disk.save(slide("warp_sum", "better words") + slide("vote", "a ballot") + slide("match", "groups"), 2);
  // Not looked at again within the poll interval...
  CHECK(file.poll(0.5) == LessonFile::Poll::Unchanged);
  CHECK(file.lesson().slides[0].caption == "first words");
  // ...and read again once it has passed.
  CHECK(file.due(1.0));
  CHECK(file.poll(1.0) == LessonFile::Poll::Reloaded);
  REQUIRE(file.lesson().slides.size() == 3);
  CHECK(file.lesson().slides[0].caption == "better words");
  CHECK(file.lesson().slides[2].scenario.scenario == "match");
  CHECK(file.text().find("better words") != std::string::npos);  // the fonts' text follows
  CHECK(file.reload_error().empty());
  // The same file time: nothing to read.
  CHECK(file.poll(2.0) == LessonFile::Poll::Unchanged);
}

TEST_CASE("a save that does not load keeps the last good lesson and says why", "[lesson][reload]") {
  LessonOnDisk disk;
  disk.save(slide("warp_sum", "kept"));
  LessonFile file;
  file.open(disk.path.string());

  disk.save(slide("warp_sum", "kept") + "[[slide]]\ncaption = \"no source\"\n", 2);
  CHECK(file.poll(1.0) == LessonFile::Poll::Failed);
  CHECK(file.lesson().slides.size() == 1);
  CHECK(file.lesson().slides[0].caption == "kept");
  CHECK_THAT(file.reload_error(), Catch::Contains(disk.path.string()));
  CHECK_THAT(file.reload_error(), Catch::Contains("slide 2"));

  // A scenario the registry does not have: lesson_problems' message.
  disk.save(slide("no_such_scenario", "kept"), 4);
  CHECK(file.poll(2.0) == LessonFile::Poll::Failed);
  CHECK_THAT(file.reload_error(), Catch::Contains("no_such_scenario"));

  // Put right: the error goes.
  disk.save(slide("warp_sum", "fixed"), 6);
  CHECK(file.poll(3.0) == LessonFile::Poll::Reloaded);
  CHECK(file.lesson().slides[0].caption == "fixed");
  CHECK(file.reload_error().empty());
}

TEST_CASE("a lesson that cannot be opened leaves the open one as it was", "[lesson][reload]") {
  LessonOnDisk disk;
  disk.save(slide("warp_sum", "open"));
  LessonFile file;
  file.open(disk.path.string());
  CHECK_THROWS_WITH(file.open((disk.dir / "missing.toml").string()), Catch::Contains("cannot read the lesson file"));
  CHECK(file.loaded());
  CHECK(file.lesson().slides[0].caption == "open");
}

TEST_CASE("after a reload the shown slide runs again only when it runs something else", "[lesson][reload]") {
  LessonOnDisk disk;
  disk.save(slide("warp_sum", "one", 3) + slide("vote", "two"));
  LessonFile file;
  file.open(disk.path.string());
  const LessonSlide shown = file.lesson().slides[0];

  const auto reload = [&](const std::string& text, int seconds) {
    disk.save(text, seconds);
    REQUIRE(file.poll(seconds) == LessonFile::Poll::Reloaded);
  };
  // A new caption: the step on screen stays.
  reload(slide("warp_sum", "one, better", 3) + slide("vote", "two"), 2);
  SlideAfterReload after = slide_after_reload(shown, 0, file.lesson());
  CHECK(after.index == 0);
  CHECK_FALSE(after.rerun);
  // Another start step, scenario or input: it runs again.
  reload(slide("warp_sum", "one", 4) + slide("vote", "two"), 4);
  CHECK(slide_after_reload(shown, 0, file.lesson()).rerun);
  reload(slide("warp_sum_xor", "one", 3) + slide("vote", "two"), 6);
  CHECK(slide_after_reload(shown, 0, file.lesson()).rerun);
  reload("[[slide]]\nscenario = \"warp_sum\"\nstart = 3\ninput = \"ones\"\ncaption = \"one\"\n", 8);
  CHECK(slide_after_reload(shown, 0, file.lesson()).rerun);
  // The lesson got shorter than the slide shown: its new last slide.
  reload(slide("warp_sum", "only", 3), 10);
  after = slide_after_reload(file.lesson().slides[0], 1, file.lesson());
  CHECK(after.index == 0);
  CHECK(after.rerun);
}
