// What a kernel was compiled to and how many of its blocks an SM can hold: registers a thread,
// local memory (spills), static shared memory, and the theoretical occupancy at a launch shape
// (cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor). A lab's variant
// reports these for its kernels (variant::resources), so the table can set the registers that
// more outputs a thread cost against the warps an SM keeps in flight.
#pragma once

#include <cstddef>
#include <string>

namespace cudalab {

struct kernel_resources {
  std::string kernel;            // a name a learner can find in the source or a profiler
  int registers = 0;             // a thread
  std::size_t local_bytes = 0;   // a thread: > 0 when the compiler spilled registers
  std::size_t shared_bytes = 0;  // static + dynamic, a block
  int block_threads = 0;         // the launch shape the occupancy is for
  int blocks_per_sm = 0;         // resident blocks an SM holds at that shape
  int max_threads_per_sm = 0;    // the device's limit (2048 on the H100)

  bool spills() const { return local_bytes > 0; }
  // Resident warps over the most an SM holds, in percent: the theoretical occupancy.
  double occupancy_pct() const {
    return max_threads_per_sm > 0
               ? 100.0 * blocks_per_sm * block_threads / static_cast<double>(max_threads_per_sm)
               : 0.0;
  }
};

// Queries `function` (a __global__ function's address) on the current device for blocks of
// `block_threads` threads and `dynamic_shared_bytes` of dynamic shared memory. Every CUDA
// call is checked (cudalab::cuda_error).
kernel_resources query_kernel_resources(const void* function, std::string name, int block_threads,
                                        std::size_t dynamic_shared_bytes = 0);

}  // namespace cudalab
