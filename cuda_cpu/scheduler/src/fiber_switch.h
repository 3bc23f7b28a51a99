// The switch from one emulated thread's fiber to another: what
// boost::context::fiber::resume does, made cheaper for the emulator's hot path,
// where every lane switches at every warp operation.
#pragma once

#include <boost/context/fiber.hpp>

namespace warpviz::emu {

// Resumes `to` and returns the context that switched back here, as
// `std::move(to).resume()` does. On x86-64 it differs in two ways:
// - It ends with `ret`, where Boost's jump ends with an indirect jump. A lane
//   that switches to another lane waiting at the same warp operation then
//   returns through the same call sites that it called through, and the CPU's
//   return-address predictions hold. Boost's jump leaves them one entry off,
//   so every return after a switch was mispredicted.
// - It does not reload the SSE and x87 control words. Every fiber of a launch
//   runs with the same ones: the only changes to them (a rounding mode set
//   and restored around one conversion) never span a switch.
// The context it saves has Boost's layout, so Boost may resume it and the
// other way round. Elsewhere it is Boost's resume.
inline boost::context::fiber switch_to(boost::context::fiber&& to);

}  // namespace warpviz::emu

#if defined(__x86_64__) && defined(__ELF__)
#include <type_traits>
#include <utility>

extern "C" boost::context::detail::transfer_t warpviz_switch_fcontext(boost::context::detail::fcontext_t to,
                                                                      void* data);

namespace warpviz::emu {

// A fiber is its context pointer and nothing else (Boost's fctx_): the
// pointer is the object's first member, which a standard-layout class lets
// us reach through the object's own address.
static_assert(std::is_standard_layout_v<boost::context::fiber> &&
              sizeof(boost::context::fiber) == sizeof(boost::context::detail::fcontext_t));
inline boost::context::detail::fcontext_t& context_of(boost::context::fiber& f) {
  return *reinterpret_cast<boost::context::detail::fcontext_t*>(&f);
}

inline boost::context::fiber switch_to(boost::context::fiber&& to) {
  const boost::context::detail::fcontext_t target = std::exchange(context_of(to), nullptr);
  boost::context::fiber back;
  context_of(back) = warpviz_switch_fcontext(target, nullptr).fctx;
  return back;
}

}  // namespace warpviz::emu

#else

namespace warpviz::emu {
inline boost::context::fiber switch_to(boost::context::fiber&& to) { return std::move(to).resume(); }
}  // namespace warpviz::emu

#endif
