// Lab 07's variants on the GPU, without any tool: every fix verifies, every planted bug shows
// what a learner sees first (a wrong or stale answer, or nothing at all), and the whole lab runs
// to its end, so no bug can take the run down with it.
#include "debugging_lab.hpp"
#include "debugging_variants.hpp"

#include "gpu_test.hpp"

#include "cudalab/runner.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab::labs {
namespace {

class lab07_variants : public testing::gpu_test {};

verify_result run_one(const std::string& name, std::size_t size = debugging_default_size) {
  static const lab l = make_lab_07_debugging();
  run_request request;
  request.which = &l;
  request.variants = {l.find(name)};
  request.sizes = {size};
  request.warmup = 1;
  request.repeat = 2;
  request.counters = false;
  const std::vector<result_row> rows = run_lab(request);
  std::cout << name << " at " << size << ": " << rows.front().verification.detail << "\n";
  return rows.front().verification;
}

TEST_F(lab07_variants, every_fix_verifies_at_the_default_size) {
  for (const char* name :
       {"oob_write_fixed", "missing_sync_fixed", "divergent_barrier_fixed", "uninit_read_fixed",
        "unchecked_launch_fixed", "leak_fixed", "global_race_atomic", "global_race_privatised",
        "swapped_index_fixed", "index_overflow_fixed"})
    EXPECT_TRUE(run_one(name).ok) << name;
}

TEST_F(lab07_variants, every_fix_verifies_at_a_small_odd_size) {
  for (const char* name : {"oob_write_fixed", "missing_sync_fixed", "divergent_barrier_fixed",
                           "uninit_read_fixed", "unchecked_launch_fixed", "leak_fixed",
                           "global_race_atomic", "global_race_privatised", "swapped_index_fixed"})
    EXPECT_TRUE(run_one(name, 16411).ok) << name;
}

TEST_F(lab07_variants, an_unchecked_launch_leaves_the_output_stale) {
  const verify_result r = run_one("unchecked_launch");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("output unchanged since the reset"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("cudaErrorInvalidValue"), std::string::npos) << r.detail;
}

TEST_F(lab07_variants, a_checked_launch_reports_the_error_and_the_run_goes_on) {
  const verify_result r = run_one("checked_launch");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("CUDALAB_CHECK_LAUNCH"), std::string::npos) << r.detail;
  EXPECT_NE(r.detail.find("cudaErrorInvalidValue"), std::string::npos) << r.detail;
  EXPECT_TRUE(run_one("unchecked_launch_fixed").ok);  // nothing left pending
}

TEST_F(lab07_variants, swapped_index_misplaces_elements) {
  EXPECT_FALSE(run_one("swapped_index").ok);
}

TEST_F(lab07_variants, the_racy_histogram_loses_counts) {
  // About a million increments into 256 bins from thousands of blocks: lost ones are certain
  // in practice, though not by any rule; the lesson's point is that the check sees them.
  EXPECT_FALSE(run_one("global_race").ok);
}

TEST_F(lab07_variants, index_overflow_never_writes_past_element_2_to_the_31) {
  const verify_result r = run_one("index_overflow");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("4096 bytes never written, from element 2147483648"), std::string::npos)
      << r.detail;
}

// The out-of-bounds stores land past the array, where verify does not look: the answer is right.
TEST_F(lab07_variants, oob_write_looks_right_to_its_check) { EXPECT_TRUE(run_one("oob_write").ok); }

TEST_F(lab07_variants, the_whole_lab_runs_to_the_end) {
  const lab l = make_lab_07_debugging();
  run_request request;
  request.which = &l;
  request.warmup = 1;
  request.repeat = 2;
  const std::vector<result_row> rows = run_lab(request);
  EXPECT_EQ(rows.size(), l.variants.size() - 1);  // every variant but the exercise
  for (const result_row& row : rows) {
    if (row.variant_name == "unchecked_launch" || row.variant_name == "checked_launch") {
      // The launch failed: no kernel ran, so no bandwidth and no launch shape.
      EXPECT_EQ(row.gbps, 0) << row.variant_name;
      EXPECT_FALSE(row.shape.known()) << row.variant_name;
    }
    if (row.variant_name == "oob_write" || row.variant_name == "oob_write_fixed") {
      // The shape is the launch that ran: a grid of whole blocks covering every element.
      EXPECT_TRUE(row.shape.known()) << row.variant_name;
      EXPECT_GE(row.shape.threads_launched(), row.config.size) << row.variant_name;
      EXPECT_GT(row.gbps, 0) << row.variant_name;
    }
  }
}

}  // namespace
}  // namespace cudalab::labs
