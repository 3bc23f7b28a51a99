// Export of the animation to MP4, WebM or GIF: rendered frames read back
// from the frame target (frame_target.h: the window, or a headless one) and piped, as raw RGB, into an ffmpeg child process. The
// command line (--export) and File > Export drive the same VideoExport one
// frame at a time, so the app keeps drawing (and can cancel) between frames.
//
// Frames per step: every step is one second of video at any frame rate:
// fps - fps/2 frames at rest on the step, then fps/2 frames of the transition
// to the next one; the last step rests the whole second. An export of N
// steps is N * fps frames. A watch that repeats its round's picture
// (`val += __shfl_down_sync(...); WARPVIZ_WATCH(val);`: the lane view shows the
// round's "val after +=" row on the shuffle already) rests with its round and
// has no second of its own, so warp_sum's 10 steps are 5 rounds, 5 seconds.
#pragma once

#include <cstddef>
#include <string>
#include <sys/types.h>
#include <vector>

#include "frame_target.h"
#include "warpviz/trace.h"
#include "warpviz/view/play_order.h"

namespace warpviz::app {

enum class ExportFormat { Unknown, Mp4, Webm, Gif, Svg };

// By the path's extension, case-insensitive: .mp4, .webm, .gif, .svg.
ExportFormat export_format(const std::string& path);
inline bool is_video(ExportFormat f) { return f == ExportFormat::Mp4 || f == ExportFormat::Webm || f == ExportFormat::Gif; }

// The full path of `program` on $PATH, "" when it is not there.
std::string find_on_path(const std::string& program);
// "--export out.mp4 needs ffmpeg (apt install ffmpeg)": what the CLI and the app say.
std::string ffmpeg_missing_message(const std::string& path);

constexpr int kDefaultExportFps = 30;

// Play positions (fractional: a transition) of every frame of an export of
// positions first..last (0-based, inclusive) at `fps`: the plan above.
// `rests_with_round[p]`: position p is such a watch (frames only if it is the
// last, where the final second rests on it); empty: none is. The arrows stop
// where the export rests: view::watches_resting_with_round (round_stops.h).
std::vector<double> export_frame_positions(size_t first, size_t last, int fps,
                                           const std::vector<bool>& rests_with_round = {});

// Parses --steps A:B (1-based, inclusive, as the timeline numbers steps; "A:"
// to the end, ":B" from the first) against `step_count`. False with `error`.
bool parse_step_range(const std::string& text, size_t step_count, size_t* first, size_t* last, std::string* error);

class VideoExport {
 public:
  VideoExport() = default;
  VideoExport(const VideoExport&) = delete;
  VideoExport& operator=(const VideoExport&) = delete;
  ~VideoExport();  // an export not finished is cancelled: its temporary file goes

  // Starts ffmpeg writing `path` (to a temporary file beside it, renamed over
  // it when finished: a failed or cancelled export leaves an existing file as
  // it was) for frames of width x height pixels. False with `error`.
  bool start(const std::string& path, int width, int height, int fps, std::string* error);
  // Reads the frame `target` just rendered (before it is presented) and
  // sends it to ffmpeg.
  bool add_frame(FrameTarget& target, std::string* error);
  // Closes ffmpeg's input, waits for it and puts the file in place.
  bool finish(std::string* error);
  void cancel();
  bool running() const { return child_ > 0; }

 private:
  void stop_child(bool kill_it, int* status);
  std::string path_, temp_path_, log_path_;
  int width_ = 0, height_ = 0;
  int pipe_fd_ = -1;
  pid_t child_ = -1;
  std::vector<unsigned char> pixels_;
};

}  // namespace warpviz::app

namespace warpviz {
struct Trace;
namespace view {
class PlayOrder;
struct SvgOptions;
}  // namespace view
}  // namespace warpviz

namespace warpviz::app {

// --export step.svg: play position `position` as SVG (view/svg_export.h),
// written with write_file_replacing. False with `error`.
bool write_step_svg(const Trace& trace, const view::PlayOrder& order, size_t position, const view::SvgOptions& options,
                    const std::string& path, std::string* error);

}  // namespace warpviz::app
