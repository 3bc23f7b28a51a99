// The UI's words. The Chinese is what a lecturer says in class: CUDA terms such
// as lane, warp and ballot stay in English where Chinese courses keep them.
#include "warpviz/view/strings.h"

#include <cstddef>
#include <iterator>

namespace warpviz::view {

namespace {

struct Words {
  Text text;
  const char* english;
  const char* chinese;
};

// In enum order, which the static_asserts below enforce.
constexpr Words kWords[] = {
    {Text::MenuFile, "File", "文件"},
    {Text::MenuOpen, "Open trace...", "打开 trace 文件..."},
    {Text::MenuSave, "Save trace...", "保存 trace 文件..."},
    {Text::MenuView, "View", "视图"},
    {Text::MenuLanguage, "Language", "语言"},
    {Text::Presentation, "Presentation mode", "演示模式"},
    {Text::Play, "Play", "播放"},
    {Text::Pause, "Pause", "暂停"},
    {Text::StepBack, "Step back", "单步后退"},
    {Text::StepForward, "Step forward", "单步前进"},
    {Text::Start, "Start", "开始"},
    {Text::End, "End", "结束"},
    {Text::Speed, "Speed", "速度"},
    {Text::Round, "Round", "轮次"},
    {Text::Scenario, "Scenario", "场景"},
    {Text::Parameters, "Parameters", "参数"},
    {Text::Input, "Input", "输入"},
    {Text::Run, "Run", "运行"},
    {Text::Backend, "Backend", "后端"},
    {Text::EmulatorBadge, "CPU emulator (sm_90 rules)", "CPU 模拟器（sm_90 规则）"},
    {Text::Ballot, "Ballot", "投票结果 (ballot)"},
    {Text::Predicate, "Predicate", "谓词"},
    {Text::Popc, "Votes for (__popc)", "赞成票数 (__popc)"},
    {Text::Ffs, "First lane voting true (__ffs - 1)", "第一个投赞成票的 lane (__ffs - 1)"},
    {Text::Slot, "Slot", "写入位置"},
    {Text::MatchGroups, "Match groups", "匹配分组"},
    {Text::WarpSums, "warpSums (one partial sum per warp)", "warpSums（每个 warp 一个部分和）"},
    {Text::BlockOutput, "Block output", "线程块输出"},
    {Text::Undefined, "Undefined", "未定义"},
    {Text::Inactive, "Inactive", "未激活"},
    {Text::OutOfRange, "Out of range: keeps its own value", "越界：保留自己的值"},
    {Text::SeedDiffers, "The seed expects %s here; the hardware gives %s", "原文在这里期望 %s，硬件实际给出 %s"},
    {Text::NothingToShow, "Nothing to show yet: run a scenario or open a trace",
     "暂无内容：请运行一个场景，或打开 trace 文件"},
    {Text::Hex, "Hex", "十六进制"},
    {Text::Read, "read", "读取"},
    {Text::KeptOwn, "kept own value", "保留自身值"},
    {Text::NoWarpSteps, "This trace has no warp steps: its kernel uses per-lane operations only (see its outputs)",
     "这个 trace 没有 warp 级步骤：它的 kernel 只用了逐 lane 的操作（见输出）"},
    {Text::Wavefront, "wavefront", "个 wavefront"},
    {Text::Wavefronts, "wavefronts", "个 wavefront"},
    {Text::Conflict, "conflict", "次冲突"},
    {Text::Conflicts, "conflicts", "次冲突"},
    {Text::Broadcasts, "broadcast lanes", "广播 lane"},
    {Text::PadTile, "Pad to 33 columns", "填充到 33 列"},
    {Text::UnpadTile, "Unpad (32 columns)", "取消填充（32 列）"},
    {Text::NoSharedAccess, "No shared-memory access in this trace: the bank and transpose scenarios have them",
     "这个 trace 没有共享内存访问：bank 和 transpose 场景才有"},
    {Text::NoSharedAccessAtStep, "Step %zu (%s) does not access shared memory: the banks show its ld.shared and st.shared steps",
     "第 %zu 步（%s）不访问共享内存：bank 视图显示它的 ld.shared 和 st.shared 步骤"},
    {Text::BankOfCell, "colour = bank = (byte offset >> 2) & 31", "颜色 = bank = (字节偏移 >> 2) & 31"},
    {Text::Banks, "banks: one box per distinct word, one row per wavefront",
     "bank：每个不同的字占一格，每行一个 wavefront"},
    {Text::Padding, "pad", "填充"},
    {Text::Model, "model", "模型"},
    {Text::Measured, "measured", "实测"},
    {Text::LoadWavefronts, "ld wavefronts", "ld wavefront 数"},
    {Text::LoadConflicts, "ld bank conflicts", "ld bank 冲突数"},
    {Text::StoreWavefronts, "st wavefronts", "st wavefront 数"},
    {Text::StoreConflicts, "st bank conflicts", "st bank 冲突数"},
    {Text::LatencyCycles, "latency (cycles per access, one warp)", "延迟（每次访问的周期数，单个 warp）"},
    {Text::ThroughputCycles, "throughput (SM cycles per warp access, all SMs full)",
     "吞吐（每次 warp 访问的 SM 周期数，所有 SM 满载）"},
    // Step and round numbers, 1-based wherever a user reads them (printf formats).
    {Text::RoundOf, "round %zu/%zu", "第 %zu/%zu 轮"},
    {Text::StepOf, "step %zu/%zu", "第 %zu/%zu 步"},
    {Text::StepOfTotal, "step %zu of %zu", "第 %zu 步，共 %zu 步"},
    {Text::StepNumber, "step %zu", "第 %zu 步"},
    {Text::CurrentStep, "Step", "当前步"},
    {Text::BlockWarp, "block %u, warp %u", "线程块 %u，warp %u"},  // the warp on screen
    // The paths panel (divergence): printf formats where they take numbers.
    {Text::PathLanes, "lanes by path", "各 lane 走的路径"},
    {Text::PathMask, "mask", "掩码"},
    {Text::PathOrder, "the order the paths ran", "各路径的执行顺序"},
    {Text::PathForked, "split after line %u", "在第 %u 行之后分开"},
    {Text::PathJoined, "joined at line %u", "在第 %u 行汇合"},
    {Text::PathNoJoin, "no join recorded: the lanes did not meet again at a warp op", "没有记录到汇合：这些 lane 之后没有再一起执行 warp 操作"},
    {Text::PathInterleaved, "the paths took turns, step by step", "各路径轮流执行，一步一换"},
    {Text::PathOneAfterAnother, "one path ran to its end, then the next", "一条路径跑完，再跑下一条"},
    {Text::PathSameCode, "every path ran the same lines: one function called on each path, or the tiles of a group",
     "每条路径执行的都是同样的代码行：每条路径各调用一次同一个函数，或是协作组的各个 tile"},
    {Text::PathNoStep, "took no warp op here", "这里没有执行 warp 操作"},
    {Text::PathUnspecifiedOrder,
     "The order of the paths is the backend's: Volta and later GPUs schedule threads independently and do not fix it",
     "路径的先后由后端决定：Volta 及之后的 GPU 独立调度线程，不保证先后顺序"},
    {Text::NoDivergence, "All lanes of the warp ran this step together: no divergent paths around it",
     "warp 的所有 lane 一起执行了这一步：附近没有分支发散"},
    {Text::PathRegions, "divergent branches in this trace", "这个 trace 中的分支发散"},
    // The two-level reductions' phases in words (play_order.cpp's position_label).
    {Text::FirstReductionRound, "first reduction, round %zu/%zu", "第一次归约，第 %zu/%zu 轮"},
    {Text::FinalReductionRound, "final reduction over warpSums, round %zu/%zu", "对 warpSums 的最终归约，第 %zu/%zu 轮"},
    {Text::WarpSumsWrite, "lane %zu writes warpSums[%zu]", "lane %zu 写入 warpSums[%zu]"},
    {Text::WarpSumsRead, "warp %zu reads warpSums[%zu..%zu]", "warp %zu 读取 warpSums[%zu..%zu]"},
};

constexpr bool in_enum_order() {
  for (size_t i = 0; i < std::size(kWords); ++i)
    if (kWords[i].text != Text(i)) return false;
  return true;
}

static_assert(std::size(kWords) == size_t(Text::Count), "every Text needs its words");
static_assert(in_enum_order(), "kWords must follow the order of enum Text");

}  // namespace

const char* tr(Text text, Language language) {
  const size_t i = size_t(text);
  // Never null: a panel may pass the result straight to ImGui.
  if (i >= std::size(kWords)) return "";
  return language == Language::Chinese ? kWords[i].chinese : kWords[i].english;
}

}  // namespace warpviz::view
