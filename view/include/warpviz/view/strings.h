// The UI's words in English and Chinese (the seeds' language).
#pragma once

namespace warpviz::view {

enum class Language { English, Chinese };

enum class Text {
  MenuFile, MenuOpen, MenuSave, MenuView, MenuLanguage, Presentation,
  Play, Pause, StepBack, StepForward, Start, End, Speed, Round,
  Scenario, Parameters, Input, Run, Backend, EmulatorBadge,
  Ballot, Predicate, Popc, Ffs, Slot, MatchGroups, WarpSums, BlockOutput,
  Undefined, Inactive, OutOfRange, SeedDiffers, NothingToShow, Hex,
  Read, KeptOwn, NoWarpSteps,
  Wavefront, Wavefronts, Conflict, Conflicts, Broadcasts, PadTile, UnpadTile, NoSharedAccess, NoSharedAccessAtStep, BankOfCell, Banks, Padding,
  Model, Measured, LoadWavefronts, LoadConflicts, StoreWavefronts, StoreConflicts, LatencyCycles,
  ThroughputCycles,
  RoundOf, StepOf, StepOfTotal, StepNumber, CurrentStep, BlockWarp,
  PathLanes, PathMask, PathOrder, PathForked, PathJoined, PathNoJoin, PathInterleaved,
  PathOneAfterAnother, PathSameCode, PathNoStep, PathUnspecifiedOrder, NoDivergence, PathRegions,
  FirstReductionRound, FinalReductionRound, WarpSumsWrite, WarpSumsRead,
  Count  // keep last
};

const char* tr(Text text, Language language);

}  // namespace warpviz::view
