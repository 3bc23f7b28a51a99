// What WARPVIZ_WATCH records a variable as, for both backends (record_host.h,
// record_device.cuh).
#pragma once

#include <type_traits>

namespace warpviz::rec {

// Enums as their underlying type, integers narrower than 32 bits (bool, char,
// short) as int or unsigned, as C++ promotes them; every other type as itself.
template <class T, bool = std::is_enum_v<T>>
struct WatchUnderlying {
  using type = T;
};
template <class T>
struct WatchUnderlying<T, true> {
  using type = std::underlying_type_t<T>;
};
template <class T, class U = typename WatchUnderlying<T>::type>
using watch_type_t =
    std::conditional_t<std::is_integral_v<U> && sizeof(U) < 4, std::conditional_t<std::is_signed_v<U>, int, unsigned>, U>;

}  // namespace warpviz::rec
