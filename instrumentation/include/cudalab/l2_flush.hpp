// Evicts the L2 cache before a counted pass, so DRAM counters see a kernel start cold.
//
// Under user replay (counters.hpp) the same kernel runs once per pass, and without this the
// second pass would find its inputs in the 50 MB L2 and read almost nothing from DRAM. The
// flush *reads* a buffer four times the L2's size (twice left ~4% of a kernel's inputs in the
// H100's L2): reading leaves no dirty line of its own (a memset-based flush would, and its
// write-backs would be counted as the next kernel's DRAM writes), and the dirty lines of
// earlier work are written back during the flush, in the flush's own range.
#pragma once

#include "cudalab/device_buffer.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace cudalab {

class l2_flush {
 public:
  // Allocates four times the L2 size of the current device (zeroed).
  l2_flush();
  // Reads the whole buffer on `stream` (asynchronous).
  void evict(cudaStream_t stream);
  std::size_t bytes() const noexcept { return m_buffer.bytes(); }

 private:
  int m_blocks = 0;
  device_buffer<uint4> m_buffer;
  device_buffer<unsigned> m_sink;  // written only if the zeroed buffer were not zero
};

}  // namespace cudalab
