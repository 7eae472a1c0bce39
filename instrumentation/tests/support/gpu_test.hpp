// Fixtures for tests that need a GPU or its counters. They skip with the reason (never pass
// silently) where the machine cannot run them; CTest reports such a case as skipped.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace cudalab::testing {

// Empty when a CUDA device is usable, else why not ("no CUDA device: ...").
std::string why_no_device();
// Empty when counters can be read, else why not ("counter access not permitted: ...").
std::string why_no_counters();

class gpu_test : public ::testing::Test {
 protected:
  void SetUp() override;
};

class counter_test : public ::testing::Test {
 protected:
  void SetUp() override;
};

}  // namespace cudalab::testing
