// The real backend's probe and constructor on whatever machine runs the tests: never a crash
// or an exception, and on a machine without a GPU exactly the no-device answer.
#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"
#include "cudalab/metrics.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace cudalab {
namespace {

TEST(counter_session_probe, answers_with_a_status_and_one_line_reason) {
  std::string why;
  const int devices = cuda_device_count(&why);
  const counter_availability a = counter_session::probe(0);
  if (devices == 0) {
    EXPECT_EQ(a.status, counter_status::no_device) << a.reason;
  } else {
    EXPECT_NE(a.status, counter_status::no_device) << a.reason;
    EXPECT_NE(a.status, counter_status::error) << a.reason;
  }
  if (!a.ok()) {
    EXPECT_FALSE(a.reason.empty());
    EXPECT_FALSE(a.fix.empty());
    EXPECT_EQ(a.reason.find('\n'), std::string::npos) << a.reason;
  }
}

TEST(counter_session_probe, a_gpu_index_that_does_not_exist_is_no_device) {
  const counter_availability a = counter_session::probe(4096);
  EXPECT_EQ(a.status, counter_status::no_device) << a.reason;
}

TEST(counter_session_probe, a_session_without_a_gpu_throws_counters_unavailable) {
  // Hide every GPU, so this runs the same on a GPU machine. CTest runs each case in its own
  // process, so the CUDA runtime has not read the variable yet.
  ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
  std::string why;
  if (cuda_device_count(&why) > 0)
    GTEST_SKIP()
        << "the CUDA runtime was initialized before GPUs could be hidden: run this case alone";
  try {
    counter_session session(0, resolve_metrics("memory"));
    FAIL() << "a session opened without a GPU";
  } catch (const counters_unavailable& e) {
    EXPECT_EQ(e.availability().status, counter_status::no_device);
    EXPECT_NE(std::string(e.what()).find("No CUDA device"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cudalab
