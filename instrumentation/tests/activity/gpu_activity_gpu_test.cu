// The inventory the grader takes of the exercise's launch tells this program's kernels from a
// library's, and sees every copy and memset: what a launcher that calls cuBLAS, CUB or the copy
// engine would hide from the counters.
#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/gpu_activity.hpp"
#include "cudalab/stream.hpp"

#include "gpu_test.hpp"

#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>

#include <gtest/gtest.h>

#include <iostream>

namespace cudalab {
namespace {

__global__ void own_scale_kernel(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}

class gpu_activity_test : public testing::gpu_test {};

void print(const gpu_activity& a) {
  for (const auto& k : a.kernels)
    std::cout << "  kernel " << k.name << " by " << k.launched_by << (k.own ? " (own)\n" : "\n");
  for (const auto& c : a.copies) std::cout << "  " << c.what << " " << c.bytes << " bytes\n";
}

TEST_F(gpu_activity_test, this_programs_kernel_is_its_own_and_nothing_else_ran) {
  device_buffer<float> data(1000);
  cuda_stream stream;
  gpu_activity_recorder recorder;
  own_scale_kernel<<<4, 256, 0, stream.get()>>>(data.data(), 1000);
  CUDALAB_CHECK_LAUNCH();
  const gpu_activity a = recorder.finish();
  print(a);
  ASSERT_TRUE(a.available) << a.reason;
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].name, "cudalab::{anonymous}::own_scale_kernel");
  EXPECT_TRUE(a.kernels[0].own) << a.kernels[0].launched_by;
  EXPECT_TRUE(a.copies.empty());
}

TEST_F(gpu_activity_test, a_graph_this_program_launches_runs_its_own_kernels) {
  device_buffer<float> data(1000);
  cuda_stream stream;
  cuda_graph graph;
  CUDALAB_CHECK_CUDA(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal));
  own_scale_kernel<<<4, 256, 0, stream.get()>>>(data.data(), 1000);
  own_scale_kernel<<<4, 256, 0, stream.get()>>>(data.data(), 1000);
  CUDALAB_CHECK_CUDA(cudaStreamEndCapture(stream.get(), graph.receive()));
  cudaGraphExec_t exec = nullptr;
  CUDALAB_CHECK_CUDA(cudaGraphInstantiate(&exec, graph.get(), 0));
  gpu_activity_recorder recorder;
  CUDALAB_CHECK_CUDA(cudaGraphLaunch(exec, stream.get()));
  const gpu_activity a = recorder.finish();
  CUDALAB_CHECK_CUDA(cudaGraphExecDestroy(exec));
  print(a);
  ASSERT_TRUE(a.available) << a.reason;
  ASSERT_EQ(a.kernels.size(), 2u);
  for (const auto& k : a.kernels) EXPECT_TRUE(k.own) << k.name << " by " << k.launched_by;
}

TEST_F(gpu_activity_test, cublas_kernels_are_the_librarys) {
  constexpr int n = 256;
  device_buffer<float> a(n * n), b(n * n), c(n * n);
  cublasHandle_t handle = nullptr;
  ASSERT_EQ(cublasCreate(&handle), CUBLAS_STATUS_SUCCESS);
  const float one = 1, zero = 0;
  // A first call loads cuBLAS's kernels: the inventory is of a call like the exercise's.
  ASSERT_EQ(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n, b.data(), n,
                        &zero, c.data(), n),
            CUBLAS_STATUS_SUCCESS);
  gpu_activity_recorder recorder;
  ASSERT_EQ(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data(), n, b.data(), n,
                        &zero, c.data(), n),
            CUBLAS_STATUS_SUCCESS);
  const gpu_activity got = recorder.finish();
  cublasDestroy(handle);
  print(got);
  ASSERT_TRUE(got.available) << got.reason;
  ASSERT_FALSE(got.kernels.empty());
  for (const auto& k : got.kernels) {
    EXPECT_FALSE(k.own) << k.name;
    EXPECT_NE(k.launched_by.find("cublas"), std::string::npos) << k.name << " by " << k.launched_by;
  }
}

TEST_F(gpu_activity_test, cubs_device_reduction_is_the_librarys_though_built_here) {
  constexpr int n = 1 << 16;
  device_buffer<int> in(n), out(1);
  std::size_t scratch_bytes = 0;
  CUDALAB_CHECK_CUDA(cub::DeviceReduce::Sum(nullptr, scratch_bytes, in.data(), out.data(), n));
  device_buffer<unsigned char> scratch(scratch_bytes);
  gpu_activity_recorder recorder;
  CUDALAB_CHECK_CUDA(
      cub::DeviceReduce::Sum(scratch.data(), scratch_bytes, in.data(), out.data(), n));
  const gpu_activity got = recorder.finish();
  print(got);
  ASSERT_TRUE(got.available) << got.reason;
  ASSERT_FALSE(got.kernels.empty());
  for (const auto& k : got.kernels) EXPECT_FALSE(k.own) << k.name;
}

TEST_F(gpu_activity_test, copies_and_memsets_are_listed_with_their_bytes) {
  device_buffer<float> a(1024), b(1024);
  cuda_stream stream;
  gpu_activity_recorder recorder;
  // A transpose of a 32 x 32 tile by the copy engine: one 2D copy a row.
  for (int r = 0; r < 32; ++r)
    CUDALAB_CHECK_CUDA(cudaMemcpy2DAsync(b.data() + r, 32 * sizeof(float), a.data() + 32 * r,
                                         sizeof(float), sizeof(float), 32, cudaMemcpyDeviceToDevice,
                                         stream.get()));
  CUDALAB_CHECK_CUDA(cudaMemsetAsync(a.data(), 0, 1024 * sizeof(float), stream.get()));
  const gpu_activity got = recorder.finish();
  print(got);
  ASSERT_TRUE(got.available) << got.reason;
  ASSERT_EQ(got.copies.size(), 33u);
  EXPECT_EQ(got.copies[0].what, "copy device to device");
  EXPECT_EQ(got.copies[0].bytes, 32 * sizeof(float));
  EXPECT_EQ(got.copies[32].what, "memset");
  EXPECT_EQ(got.copies[32].bytes, 1024 * sizeof(float));
}

TEST_F(gpu_activity_test, a_second_recorder_at_once_says_it_cannot) {
  gpu_activity_recorder first;
  gpu_activity_recorder second;
  const gpu_activity got = second.finish();
  EXPECT_FALSE(got.available);
  EXPECT_NE(got.reason.find("another inventory"), std::string::npos) << got.reason;
  EXPECT_TRUE(first.finish().available);
}

}  // namespace
}  // namespace cudalab
