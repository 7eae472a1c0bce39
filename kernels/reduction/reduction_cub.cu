// Lab 05 baseline: cub::DeviceReduce::Sum, the library reduction the lab's kernels are
// measured against (about 91% of the H100's peak DRAM bandwidth at 2^28 floats). CUB asks for
// temporary storage first; the variant allocates it once in prepare, so the timed launch is
// the reduction alone.
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

#include <cub/device/device_reduce.cuh>

namespace cudalab::reduction {

std::size_t cub_sum_temp_bytes(std::size_t n) {
  check_size(n);
  std::size_t bytes = 0;
  CUDALAB_CHECK_CUDA(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                            static_cast<float*>(nullptr), static_cast<int>(n)));
  return bytes;
}

void launch_cub_sum(const float* in, float* out, std::size_t n, void* temp, std::size_t temp_bytes,
                    cudaStream_t stream) {
  check_size(n);
  CUDALAB_CHECK_CUDA(
      cub::DeviceReduce::Sum(temp, temp_bytes, in, out, static_cast<int>(n), stream));
}

}  // namespace cudalab::reduction
