#include "gpu_test.hpp"

#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"

#include <cuda_runtime_api.h>

namespace cudalab::testing {

std::string why_no_device() {
  std::string why;
  if (cuda_device_count(&why) == 0) return "no CUDA device: " + why;
  return {};
}

std::string why_no_counters() {
  if (auto why = why_no_device(); !why.empty()) return why;
  const counter_availability a = counter_session::probe(0);
  if (a.ok()) return {};
  switch (a.status) {
    case counter_status::no_permission:
      return "counter access not permitted: " + a.reason;
    case counter_status::profiler_attached:
      return "another profiler is attached: " + a.reason;
    default:
      return "counters unavailable: " + a.reason;
  }
}

void gpu_test::SetUp() {
  if (auto why = why_no_device(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

void counter_test::SetUp() {
  if (auto why = why_no_counters(); !why.empty()) GTEST_SKIP() << why;
  ASSERT_EQ(cudaSetDevice(0), cudaSuccess);
}

}  // namespace cudalab::testing
