// One owner for a handle that a C API creates and destroys (a CUDA stream, event or graph, a
// cuBLAS handle, pinned host memory, a file descriptor): move-only, destroyed exactly once,
// on every path. `Destroy` is a type whose call operator releases a handle and never throws
// (CUDA's destroyers report a failure on stderr: CUDALAB_CHECK_CUDA_NOEXCEPT); `Empty` is the
// value that owns nothing (nullptr for pointers, -1 for file descriptors).
#pragma once

#include <utility>

namespace cudalab {

template <class Handle, class Destroy, Handle Empty = Handle{}>
class unique_handle {
 public:
  unique_handle() noexcept = default;
  explicit unique_handle(Handle handle) noexcept : m_handle(handle) {}
  ~unique_handle() { reset(); }
  unique_handle(const unique_handle&) = delete;  // one owner destroys it
  unique_handle& operator=(const unique_handle&) = delete;
  unique_handle(unique_handle&& other) noexcept : m_handle(std::exchange(other.m_handle, Empty)) {}
  unique_handle& operator=(unique_handle&& other) noexcept {
    if (this != &other) reset(std::exchange(other.m_handle, Empty));
    return *this;
  }

  Handle get() const noexcept { return m_handle; }
  explicit operator bool() const noexcept { return m_handle != Empty; }
  // Where a create call writes the new handle (after releasing any held one): the
  // `cudaStreamCreate(owner.receive())` idiom.
  Handle* receive() noexcept {
    reset();
    return &m_handle;
  }
  // Gives the handle up without destroying it (for a call that takes ownership, like close).
  Handle release() noexcept { return std::exchange(m_handle, Empty); }
  void reset(Handle handle = Empty) noexcept {
    if (m_handle != Empty) Destroy{}(m_handle);
    m_handle = handle;
  }

 private:
  Handle m_handle = Empty;
};

}  // namespace cudalab
