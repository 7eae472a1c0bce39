#include "cudalab/kernel_resources.hpp"

#include "cudalab/check.hpp"

#include <cuda_runtime_api.h>

namespace cudalab {

kernel_resources query_kernel_resources(const void* function, std::string name, int block_threads,
                                        std::size_t dynamic_shared_bytes) {
  cudaFuncAttributes attributes{};
  CUDALAB_CHECK_CUDA(cudaFuncGetAttributes(&attributes, function));
  int blocks = 0;
  CUDALAB_CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, function, block_threads,
                                                                   dynamic_shared_bytes));
  int device = 0;
  CUDALAB_CHECK_CUDA(cudaGetDevice(&device));
  int max_threads = 0;
  CUDALAB_CHECK_CUDA(
      cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, device));
  kernel_resources r;
  r.kernel = std::move(name);
  r.registers = attributes.numRegs;
  r.local_bytes = attributes.localSizeBytes;
  r.shared_bytes = attributes.sharedSizeBytes + dynamic_shared_bytes;
  r.block_threads = block_threads;
  r.blocks_per_sm = blocks;
  r.max_threads_per_sm = max_threads;
  return r;
}

}  // namespace cudalab
