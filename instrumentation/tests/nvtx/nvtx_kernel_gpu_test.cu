// Ranges around real CUDA work: a lab > variant > phase nesting with a kernel launch and a copy
// inside, captured through CUPTI exactly as the runner emits it. The kernel's output is checked
// too, so the test fails if the work inside the ranges did not happen.
#include "nvtx_capture.hpp"

#include "gpu_test.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/nvtx.hpp"
#include "cudalab/stream.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using cudalab::testing::nvtx_capture;
namespace nvtx = cudalab::nvtx;

__global__ void nvtx_fill_kernel(int* out, int value) { out[threadIdx.x] = value + threadIdx.x; }

class nvtx_kernel_capture : public cudalab::testing::gpu_test {};

TEST_F(nvtx_kernel_capture, ranges_around_a_kernel_keep_names_nesting_and_lab_category) {
  CUDALAB_REQUIRE_NVTX_CAPTURE();
  constexpr int threads = 64;
  std::vector<int> host;
  {
    cudalab::cuda_stream stream;
    cudalab::device_buffer<int> out(threads);
    nvtx::scoped_range lab("04-coalescing", "04-coalescing");
    nvtx::scoped_range variant("aos_float3", "04-coalescing");
    {
      nvtx::scoped_range phase("kernel", "04-coalescing");
      nvtx_fill_kernel<<<1, threads, 0, stream.get()>>>(out.data(), 100);
      CUDALAB_CHECK_LAUNCH();
    }
    {
      nvtx::scoped_range phase("d2h", "04-coalescing");
      out.copy_to_host(host, stream.get());
    }
  }
  ASSERT_EQ(host.size(), static_cast<std::size_t>(threads));
  for (int i = 0; i < threads; ++i) ASSERT_EQ(host[i], 100 + i) << "element " << i;

  const std::vector<std::string> expected{"04-coalescing", "04-coalescing/aos_float3",
                                          "04-coalescing/aos_float3/kernel",
                                          "04-coalescing/aos_float3/d2h"};
  EXPECT_EQ(nvtx_capture()->paths("cudalab"), expected);
  for (const auto& r : nvtx_capture()->ranges()) {
    EXPECT_EQ(r.domain, "cudalab") << r.path;
    EXPECT_TRUE(r.registered) << r.path << " was not a registered string";
    EXPECT_EQ(r.category, 4u) << r.path;
    EXPECT_TRUE(r.closed) << r.path;
  }
  EXPECT_TRUE(nvtx_capture()->problems().empty()) << nvtx_capture()->problems().front();
}

}  // namespace
