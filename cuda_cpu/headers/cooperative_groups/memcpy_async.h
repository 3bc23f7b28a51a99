// warpviz: <cooperative_groups/memcpy_async.h> on the CPU backend: a group's
// collective copy (cg::memcpy_async) and its waits (cg::wait, cg::wait_prior).
// Each member copies its share at the call; the wait is the group's barrier,
// after which every member sees the whole copy, as the CUDA Programming Guide
// promises after cg::wait.
#pragma once

#include <cstddef>

#include <cuda/barrier>

namespace warpviz::cg {

// `bytes` of `src` into `dst` (a size_t or a cuda::aligned_size_t).
template <class Group, class Elem, class Size>
void memcpy_async(const Group& group, Elem* dst, const Elem* src, const Size& bytes) {
  ::cuda::warpviz_detail::copy_share(dst, src, std::size_t(bytes), group.thread_rank(), group.size());
}
// The layout form: element counts of the destination and the source; the
// shorter is copied.
template <class Group, class Elem, class DstLayout, class SrcLayout>
void memcpy_async(const Group& group, Elem* dst, const DstLayout& dst_count, const Elem* src,
                  const SrcLayout& src_count) {
  const std::size_t count = std::min(std::size_t(dst_count), std::size_t(src_count));
  ::cuda::warpviz_detail::copy_share(dst, src, count * sizeof(Elem), group.thread_rank(), group.size());
}

// Every earlier copy of the group is done: once all members are here.
template <class Group>
void wait(const Group& group, Line line = __builtin_LINE()) {
  group.sync(line);
}
// All but the last `Prior` batches: every copy is done at its call, so the
// same barrier.
template <unsigned Prior, class Group>
void wait_prior(const Group& group, Line line = __builtin_LINE()) {
  group.sync(line);
}

}  // namespace warpviz::cg
