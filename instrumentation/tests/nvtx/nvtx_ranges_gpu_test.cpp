// NVTX ranges as a tool sees them, captured in-process through CUPTI: the `cudalab` domain,
// the nesting of scoped ranges as paths, registered strings, one category per lab. These are the
// names `ncu --nvtx-include "cudalab@<lab>/<variant>/"` matches. No kernel runs here, but CUPTI
// needs the driver (cuptiSubscribe fails without one), hence the gpu label.
#include "nvtx_capture.hpp"

#include "cudalab/nvtx.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include <string>
#include <vector>

namespace {

using cudalab::testing::nvtx_capture;
using cudalab::testing::nvtx_range;
namespace nvtx = cudalab::nvtx;

std::string no_callbacks_hint() {
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  return std::string(
             "no NVTX callback arrived: NVTX did not load CUPTI from NVTX_INJECTION64_PATH=") +
         (path ? path : "(unset)");
}

TEST(nvtx_ranges, scoped_ranges_nest_as_lab_variant_phase_paths_in_the_cudalab_domain) {
  CUDALAB_REQUIRE_NVTX_CAPTURE();
  {
    nvtx::scoped_range lab("04-coalescing", "04-coalescing");
    nvtx::scoped_range variant("aos_float3", "04-coalescing");
    { nvtx::scoped_range phase("kernel", "04-coalescing"); }
    { nvtx::scoped_range phase("d2h", "04-coalescing"); }
  }
  const std::vector<std::string> expected{"04-coalescing", "04-coalescing/aos_float3",
                                          "04-coalescing/aos_float3/kernel",
                                          "04-coalescing/aos_float3/d2h"};
  ASSERT_GT(nvtx_capture()->callbacks(), 0u) << no_callbacks_hint();
  EXPECT_EQ(nvtx_capture()->paths("cudalab"), expected);
  const std::vector<nvtx_range> ranges = nvtx_capture()->ranges();
  ASSERT_EQ(ranges.size(), 4u) << "ranges outside the cudalab domain were pushed";
  for (const nvtx_range& r : ranges) {
    EXPECT_TRUE(r.registered) << r.path << " was pushed as a plain string";
    EXPECT_EQ(r.category, 4u) << r.path << " is not in lab 04's category";
    EXPECT_TRUE(r.closed) << r.path << " was never popped";
  }
  EXPECT_EQ(ranges[2].depth, 2u);
  EXPECT_TRUE(nvtx_capture()->problems().empty()) << nvtx_capture()->problems().front();
}

TEST(nvtx_ranges, a_range_without_a_lab_has_no_category) {
  CUDALAB_REQUIRE_NVTX_CAPTURE();
  { nvtx::scoped_range plain("startup"); }
  const auto ranges = nvtx_capture()->ranges();
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].path, "startup");
  EXPECT_EQ(ranges[0].domain, "cudalab");
  EXPECT_EQ(ranges[0].category, 0u);
  EXPECT_TRUE(ranges[0].registered);
}

TEST(nvtx_ranges, the_recorder_reads_ascii_messages_and_other_domains) {
  CUDALAB_REQUIRE_NVTX_CAPTURE();
  {
    nvtx3::scoped_range_in<nvtx::domain> ascii{"ascii_range"};
    nvtxRangePushA("default_domain_range");
    nvtxRangePop();
  }
  const auto ranges = nvtx_capture()->ranges();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].domain, "cudalab");
  EXPECT_EQ(ranges[0].name, "ascii_range");
  EXPECT_FALSE(ranges[0].registered);
  // The default domain has its own stack: its range is outermost, not inside ascii_range.
  EXPECT_EQ(ranges[1].domain, "");
  EXPECT_EQ(ranges[1].path, "default_domain_range");
  EXPECT_TRUE(ranges[0].closed && ranges[1].closed);
}

TEST(nvtx_ranges, the_recorder_reports_a_pop_without_a_push) {
  CUDALAB_REQUIRE_NVTX_CAPTURE();
  nvtxDomainRangePop(nvtx3::domain::get<nvtx::domain>());
  ASSERT_EQ(nvtx_capture()->problems().size(), 1u);
  EXPECT_NE(nvtx_capture()->problems()[0].find("pop without a push"), std::string::npos);
}

}  // namespace
