# The built-in kernel files, in kernels/: the one list a new kernel file joins.
# Each file declares its scenarios after its kernels (scenario_decl.h). From
# this list the build embeds the sources (core: the source panel, traces) and
# generates the per-backend wrappers (kernels/CMakeLists.txt).
set(WARPVIZ_KERNEL_FILES
  warp_shuffle.cu
  warp_reduce_int.cu
  shfl_playground.cu
  warp_vote.cu
  divergence.cu
  match_redux.cu
  cooperative_groups.cu
  bits.cu
  shared_banks.cu
)
