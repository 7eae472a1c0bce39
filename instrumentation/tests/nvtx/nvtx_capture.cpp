// The GoogleTest environment that points NVTX at libcupti and subscribes the recorder before
// any test runs, so the `cudalab` domain's creation and string registrations are seen.
#include "nvtx_capture.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>

namespace cudalab::testing {
namespace {

struct capture_state {
  std::unique_ptr<nvtx_recorder> recorder;
  std::string why = "the NVTX capture environment has not run";
  std::string skip;
};

capture_state& capture() {
  static capture_state s;
  return s;
}

class nvtx_capture_environment final : public ::testing::Environment {
 public:
  void SetUp() override {
    capture_state& s = capture();
    try {
      point_nvtx_injection_at_cupti();
      s.recorder = std::make_unique<nvtx_recorder>();
      s.why.clear();
      return;
    } catch (const std::exception& e) {
      s.why = std::string("NVTX capture unavailable: ") + e.what();
    }
    if (s.why.find("another CUPTI subscriber") != std::string::npos)
      s.skip = s.why + " (run this test without nsys, ncu or cuda-gdb)";
    else if (const std::string no_device = why_no_device(); !no_device.empty())
      s.skip = s.why + "; " + no_device;
  }
  void TearDown() override { capture().recorder.reset(); }
};

// Registered during static initialization; GoogleTest runs SetUp before the first test.
::testing::Environment* const registered_environment =
    ::testing::AddGlobalTestEnvironment(new nvtx_capture_environment);

}  // namespace

nvtx_recorder* nvtx_capture() { return capture().recorder.get(); }
std::string why_no_nvtx_capture() { return capture().why; }
std::string nvtx_capture_skip_reason() { return capture().skip; }

}  // namespace cudalab::testing
