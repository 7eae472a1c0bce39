// One nvtx_recorder for the whole test executable, subscribed by a GoogleTest environment
// before the first test (so before the first NVTX call): compile nvtx_capture.cpp into the test
// and start each test with CUDALAB_REQUIRE_NVTX_CAPTURE(). CUPTI allows one subscriber per
// process, so an executable that captures NVTX must not also collect counters.
#pragma once

#include "nvtx_recorder.hpp"

#include <string>

namespace cudalab::testing {

// The recorder, or nullptr when it could not subscribe (then why_no_nvtx_capture() says why).
nvtx_recorder* nvtx_capture();
std::string why_no_nvtx_capture();
// Non-empty when the capture cannot work for a reason that is not a bug: no CUDA driver or
// device (cuptiSubscribe needs the driver), or another CUPTI subscriber (running under nsys or
// ncu). Any other failure to subscribe is a test failure.
std::string nvtx_capture_skip_reason();

}  // namespace cudalab::testing

// In a test body: skips with the reason, fails if the recorder could not subscribe for any other
// reason, and otherwise forgets what earlier tests recorded.
#define CUDALAB_REQUIRE_NVTX_CAPTURE()                                               \
  do {                                                                               \
    if (const std::string why_skip = ::cudalab::testing::nvtx_capture_skip_reason(); \
        !why_skip.empty())                                                           \
      GTEST_SKIP() << why_skip;                                                      \
    ASSERT_NE(::cudalab::testing::nvtx_capture(), nullptr)                           \
        << ::cudalab::testing::why_no_nvtx_capture();                                \
    ::cudalab::testing::nvtx_capture()->clear();                                     \
  } while (0)
