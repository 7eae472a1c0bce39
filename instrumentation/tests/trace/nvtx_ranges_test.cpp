// The NVTX ranges an injection library keeps (injection/nvtx_ranges.hpp), driven by the NVTX
// calls a program makes: C push/pop, nvtx3's scoped ranges in the global domain and in a domain
// of the program's own, registered strings, pops that close only their own domain's range, and
// threads that keep their own ranges. NVTX finds the tool through its static-injection symbol
// (nvtx_static_injection.cpp), so no library is loaded and no GPU is needed.
#include "nvtx_ranges.hpp"

#include <nvtx3/nvtx3.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace {

using cudalab::injection::nvtx_path_of_this_thread;

struct program_domain {
  static constexpr const char* name{"solver"};
};

TEST(injected_nvtx_ranges, c_push_and_pop_nest_outermost_first) {
  EXPECT_EQ(nvtx_path_of_this_thread(), "");
  EXPECT_EQ(nvtxRangePushA("train"), 0);
  EXPECT_EQ(nvtxRangePushA("step"), 1);
  EXPECT_EQ(nvtx_path_of_this_thread(), "train/step");
  EXPECT_EQ(nvtxRangePop(), 1);
  EXPECT_EQ(nvtx_path_of_this_thread(), "train");
  nvtxRangePop();
  EXPECT_EQ(nvtx_path_of_this_thread(), "");
}

TEST(injected_nvtx_ranges, scoped_ranges_and_registered_strings_name_their_range) {
  const nvtx3::registered_string_in<program_domain> registered{"assemble"};
  {
    const nvtx3::scoped_range outer{"epoch 1"};
    const nvtx3::scoped_range_in<program_domain> inner{registered};
    EXPECT_EQ(nvtx_path_of_this_thread(), "epoch 1/solver:assemble");
  }
  EXPECT_EQ(nvtx_path_of_this_thread(), "");
}

TEST(injected_nvtx_ranges, a_pop_closes_the_innermost_range_of_its_own_domain) {
  nvtxRangePushA("outer");
  {
    const nvtx3::scoped_range_in<program_domain> solve{"solve"};
    nvtxRangePushA("inner");
    EXPECT_EQ(nvtx_path_of_this_thread(), "outer/solver:solve/inner");
  }  // the domain's range ends while the global one opened after it stays open
  EXPECT_EQ(nvtx_path_of_this_thread(), "outer/inner");
  nvtxRangePop();
  nvtxRangePop();
  EXPECT_EQ(nvtx_path_of_this_thread(), "");
  EXPECT_LT(nvtxRangePop(), 0);  // nothing open: NVTX's negative answer, no crash
}

TEST(injected_nvtx_ranges, each_thread_keeps_its_own_ranges) {
  nvtxRangePushA("main thread");
  std::string other;
  std::thread([&] {
    nvtxRangePushA("worker");
    other = nvtx_path_of_this_thread();
    nvtxRangePop();
  }).join();
  EXPECT_EQ(other, "worker");
  EXPECT_EQ(nvtx_path_of_this_thread(), "main thread");
  nvtxRangePop();
}

}  // namespace
