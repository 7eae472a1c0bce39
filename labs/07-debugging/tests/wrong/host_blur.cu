// A wrong way to do lab 07's exercise, kept as a test input for the grader: the launcher copies
// the input to the host, blurs it there and copies the result back. The answer is right and no
// kernel runs, so compute-sanitizer has nothing to report and every tool's line would pass; the
// grader's inventory of the launch sees the copies and that no kernel ran, and fails it.
#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"

#include "cudalab/check.hpp"

#include <vector>

namespace cudalab::labs {
namespace {

debugging::launch_dims launch_on_the_host(const float* in, float* out, std::size_t n,
                                          unsigned block, cudaStream_t stream) {
  debugging::check_block(block);
  std::vector<float> host_in(n), host_out(n);
  CUDALAB_CHECK_CUDA(
      cudaMemcpyAsync(host_in.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost, stream));
  CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  for (std::size_t i = 0; i < n; ++i)
    host_out[i] = debugging::blur3(host_in[debugging::clamped(debugging::left_of(i), n)],
                                   host_in[i], host_in[debugging::clamped(i + 1, n)]);
  CUDALAB_CHECK_CUDA(
      cudaMemcpyAsync(out, host_out.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream));
  CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  return {dim3(static_cast<unsigned>((n + block - 1) / block)), dim3(block)};
}

}  // namespace

variant make_debugging_exercise_variant() {
  return make_exercise_variant("wrong way: the blur computed on the host", launch_on_the_host);
}

}  // namespace cudalab::labs
