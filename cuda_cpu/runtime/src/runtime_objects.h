// The objects the CPU runtime hands a program (cuBLAS handles and
// descriptors, events): each stays reachable from a table until the program
// destroys it. Real programs often never destroy theirs, as the GPU's runtime
// allows; under the sanitized kit LeakSanitizer would otherwise call that
// the program's leak and fail its run.
#pragma once

#include <mutex>
#include <unordered_set>
#include <utility>

namespace warpviz::user {

struct RuntimeObjects {
  std::mutex lock;
  std::unordered_set<const void*> live;
};

// Never destroyed, so a handle destroyed from an exit handler still finds it.
inline RuntimeObjects& runtime_objects() {
  static RuntimeObjects* objects = new RuntimeObjects;
  return *objects;
}

template <class T, class... Args>
T* make_runtime_object(Args&&... args) {
  T* object = new T{std::forward<Args>(args)...};
  RuntimeObjects& table = runtime_objects();
  std::lock_guard<std::mutex> hold(table.lock);
  table.live.insert(object);
  return object;
}

template <class T>
void destroy_runtime_object(T* object) {
  if (!object) return;
  {
    RuntimeObjects& table = runtime_objects();
    std::lock_guard<std::mutex> hold(table.lock);
    table.live.erase(object);
  }
  delete object;
}

}  // namespace warpviz::user
