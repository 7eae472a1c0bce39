// A wrong way to do lab 05's exercise, kept as a test input for the grader: a kernel of the
// learner's own writes each block's segment offsets, then cub::DeviceSegmentedReduce::Sum adds
// every block's elements in a kernel of CUB's. The block sums are right; the reduction is the
// library's. Whatever its other lines read (the offsets kernel's own stores already take the
// global writes past one a block), the grader's inventory of the launch names CUB's kernel, and
// "kernels" fails.
#include "../graded_way.cuh"

#include <cub/device/device_segmented_reduce.cuh>

namespace cudalab::labs {
namespace {

// Segment b is [offsets[b], offsets[b + 1]): `block` elements, the last one shorter.
__global__ void segment_offsets_kernel(int* offsets, unsigned segments, unsigned block,
                                       unsigned n) {
  const unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b <= segments) offsets[b] = static_cast<int>(b == segments ? n : b * block);
}

reduction::launch_dims launch_cub(const float* in, float* partial, std::size_t n, unsigned block,
                                  cudaStream_t stream) {
  reduction::check_block(block);
  reduction::check_size(n);
  const unsigned segments = reduction::tree_blocks(n, block);
  // Offsets and CUB's scratch, kept for the process as a learner's static buffers would be.
  static int* offsets = nullptr;
  static void* scratch = nullptr;
  static std::size_t offsets_held = 0, scratch_held = 0;
  if (offsets_held < segments + 1u) {
    CUDALAB_CHECK_CUDA(cudaFree(offsets));
    CUDALAB_CHECK_CUDA(cudaMalloc(&offsets, (segments + 1u) * sizeof(int)));
    offsets_held = segments + 1u;
  }
  segment_offsets_kernel<<<(segments + 256) / 256, 256, 0, stream>>>(offsets, segments, block,
                                                                     static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  std::size_t bytes = 0;
  CUDALAB_CHECK_CUDA(cub::DeviceSegmentedReduce::Sum(
      nullptr, bytes, in, partial, static_cast<int>(segments), offsets, offsets + 1, stream));
  if (scratch_held < bytes) {
    CUDALAB_CHECK_CUDA(cudaFree(scratch));
    CUDALAB_CHECK_CUDA(cudaMalloc(&scratch, bytes));
    scratch_held = bytes;
  }
  CUDALAB_CHECK_CUDA(cub::DeviceSegmentedReduce::Sum(
      scratch, bytes, in, partial, static_cast<int>(segments), offsets, offsets + 1, stream));
  return {segments, block, 0};
}

}  // namespace
}  // namespace cudalab::labs

CUDALAB_REDUCTION_WAY_LAUNCHED(&cudalab::labs::launch_cub,
                               "wrong way: cub::DeviceSegmentedReduce over the blocks")
