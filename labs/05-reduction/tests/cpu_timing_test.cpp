// Lab 05's CPU baseline is timed with the host's clock: CUDA events stamp when the GPU reaches
// them, so they cannot time a loop that runs on the CPU.
#include "cudalab/lab.hpp"
#include "cudalab/timing.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace cudalab::labs {
lab make_lab_05_reduction();
}

namespace {

using namespace std::chrono_literals;

TEST(reduction_cpu_timing, only_the_cpu_reference_is_timed_on_the_host_clock) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  int host_timed = 0;
  for (const auto& v : l.variants) {
    EXPECT_EQ(v.timed_on_host, v.name == "cpu_reference") << v.name;
    if (v.timed_on_host) {
      ++host_timed;
      EXPECT_FALSE(v.has_kernels) << v.name << ": no kernel for the counters to see";
    }
  }
  EXPECT_EQ(host_timed, 1);
}

TEST(host_timing, counts_the_work_and_every_repeat_but_not_what_runs_before_each) {
  int work_calls = 0, setup_calls = 0;
  const cudalab::timing_stats t = cudalab::time_on_host(
      2, 5,
      [&] {
        ++work_calls;
        std::this_thread::sleep_for(2ms);
      },
      [&] {
        ++setup_calls;
        std::this_thread::sleep_for(50ms);
      });
  EXPECT_EQ(work_calls, 2 + 5);
  EXPECT_EQ(setup_calls, 2 + 5);
  EXPECT_EQ(t.repeats, 5);
  // sleep_for never returns early: every sample holds the 2 ms of work ...
  EXPECT_GE(t.min_ms, 2.0);
  EXPECT_LE(t.min_ms, t.median_ms);
  EXPECT_LE(t.median_ms, t.max_ms);
  // ... and none holds the 50 ms spent before it.
  EXPECT_LT(t.max_ms, 50.0);
}

TEST(host_timing, no_repeats_give_an_empty_result) {
  const cudalab::timing_stats t = cudalab::time_on_host(0, 0, [] {});
  EXPECT_EQ(t.repeats, 0);
  EXPECT_EQ(t.median_ms, 0.0);
}

}  // namespace
