// Host memory the copies read and write: pageable (std::vector, what `new` and `malloc` give)
// or pinned (cudaMallocHost: page-locked, so the copy engine reads it directly, without the
// driver's staging copy).
#pragma once

#include "memory_variants.hpp"

#include "cudalab/check.hpp"
#include "cudalab/unique_handle.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

namespace cudalab::labs {

struct free_pinned {
  void operator()(float* p) const noexcept { CUDALAB_CHECK_CUDA_NOEXCEPT(cudaFreeHost(p)); }
};

class host_buffer {
 public:
  host_buffer(std::size_t count, host_memory kind) : m_count(count) {
    if (kind == host_memory::pinned) {
      CUDALAB_CHECK_CUDA(
          cudaMallocHost(reinterpret_cast<void**>(m_pinned.receive()), count * sizeof(float)));
    } else {
      m_pageable.resize(count);
    }
  }
  host_buffer(host_buffer&& other) noexcept
      : m_pageable(std::move(other.m_pageable)),
        m_pinned(std::move(other.m_pinned)),
        m_count(std::exchange(other.m_count, 0)) {}
  host_buffer& operator=(host_buffer&&) = delete;

  float* data() noexcept { return m_pinned ? m_pinned.get() : m_pageable.data(); }
  const float* data() const noexcept { return m_pinned ? m_pinned.get() : m_pageable.data(); }
  std::size_t size() const noexcept { return m_count; }
  std::size_t bytes() const noexcept { return m_count * sizeof(float); }
  std::vector<float> to_vector() const { return {data(), data() + m_count}; }

 private:
  std::vector<float> m_pageable;
  unique_handle<float*, free_pinned> m_pinned;  // page-locked memory, or nothing
  std::size_t m_count = 0;
};

}  // namespace cudalab::labs
