// compute-sanitizer on every planted bug and every fix of lab 07 (labels gpu, sanitizer): each
// buggy variant draws the kind of report its tool gives (so a compiler that optimised a bug
// away fails here), each fixed twin and each bug no tool sees is clean under all four tools.
// Each run is a child process: compute-sanitizer <tool> <runner> run 07-debugging --variant v.
#include "debugging_lab.hpp"
#include "sanitizer_run.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#ifndef CUDALAB_CHECK_RUNNER
#error "compile with CUDALAB_CHECK_RUNNER=<a program that runs lab 07's variants>"
#endif

namespace cudalab::labs {
namespace {

class lab07_sanitizer : public testing::gpu_test {
 protected:
  void SetUp() override {
    gpu_test::SetUp();
    if (IsSkipped()) return;
    m_sanitizer = find_compute_sanitizer();
    if (m_sanitizer.empty())
      GTEST_SKIP() << "compute-sanitizer not found: " << how_to_get_compute_sanitizer();
    ::setenv("CUDALAB_CHECK_RUNNER", CUDALAB_CHECK_RUNNER, 1);
  }
  sanitized_run run(const std::string& tool, const std::string& variant) {
    sanitized_run r =
        run_under_sanitizer(m_sanitizer, tool, "07-debugging", variant, debugging_default_size);
    std::cout << variant << " under " << tool << ": " << r.report.errors() << " error(s)\n";
    for (const finding_group& g : group_findings(r.report))
      std::cout << "  " << describe(g) << "\n";
    if (r.report.device_unsupported) ADD_FAILURE() << "compute-sanitizer: device not supported";
    EXPECT_TRUE(r.report.error_summary) << tool << " did not finish on " << variant << ":\n"
                                        << r.child.output;
    return r;
  }
  std::string m_sanitizer;
};

struct planted_bug {
  const char* variant;
  const char* tool;
  const char* kind;  // a part of the grouped kind the tool must report
};

class lab07_planted : public lab07_sanitizer, public ::testing::WithParamInterface<planted_bug> {};

TEST_P(lab07_planted, is_reported_by_its_tool) {
  const planted_bug bug = GetParam();
  const sanitized_run r = run(bug.tool, bug.variant);
  EXPECT_GT(r.report.errors(), 0u) << r.child.output;
  bool found = false;
  for (const finding_group& g : group_findings(r.report))
    found = found || g.kind.find(bug.kind) != std::string::npos;
  EXPECT_TRUE(found) << bug.variant << ": no '" << bug.kind << "' report from " << bug.tool;
}

INSTANTIATE_TEST_SUITE_P(
    lab07, lab07_planted,
    ::testing::Values(planted_bug{"oob_write", "memcheck", "Invalid __global__ write"},
                      planted_bug{"index_overflow", "memcheck", "Invalid __global__ write"},
                      planted_bug{"missing_sync", "racecheck", "Race reported"},
                      planted_bug{"divergent_barrier", "synccheck", "Barrier error"},
                      planted_bug{"uninit_read", "initcheck",
                                  "Uninitialized __global__ memory read"},
                      planted_bug{"unchecked_launch", "memcheck", "cudaErrorInvalidValue"},
                      planted_bug{"checked_launch", "memcheck", "cudaErrorInvalidValue"},
                      planted_bug{"leak", "leak", "Leaked device memory"}),
    [](const ::testing::TestParamInfo<planted_bug>& info) {
      return std::string(info.param.variant) + "_" + info.param.tool;
    });

// The fixed twins, and the two bugs that only a wrong answer (or cuda-gdb) shows.
class lab07_clean : public lab07_sanitizer, public ::testing::WithParamInterface<std::string> {};

TEST_P(lab07_clean, draws_no_error_from_any_tool) {
  for (const char* tool : {"memcheck", "racecheck", "synccheck", "initcheck"}) {
    const sanitized_run r = run(tool, GetParam());
    EXPECT_EQ(r.report.errors(), 0u) << GetParam() << " under " << tool << ":\n" << r.child.output;
  }
}

// index_overflow_fixed writes 2^31 + 4096 bytes: under racecheck and initcheck, which shadow
// every byte, that takes minutes. It has no shared memory and no barrier, so memcheck (the tool
// that reports its twin) is the one that can say something about it.
TEST_F(lab07_sanitizer, index_overflow_fixed_draws_no_memcheck_error) {
  const sanitized_run r = run("memcheck", "index_overflow_fixed");
  EXPECT_EQ(r.report.errors(), 0u) << r.child.output;
}

TEST_F(lab07_sanitizer, leak_fixed_frees_its_table) {
  const sanitized_run r = run("leak", "leak_fixed");
  EXPECT_EQ(r.report.errors(), 0u) << r.child.output;
}

INSTANTIATE_TEST_SUITE_P(lab07, lab07_clean,
                         ::testing::Values("oob_write_fixed", "missing_sync_fixed",
                                           "divergent_barrier_fixed", "uninit_read_fixed",
                                           "unchecked_launch_fixed", "leak_fixed", "global_race",
                                           "global_race_atomic", "global_race_privatised",
                                           "swapped_index", "swapped_index_fixed"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace cudalab::labs
