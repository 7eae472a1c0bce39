// Lab 07's registration on the CPU: the variants and their roles, the size rules of the
// variants that write past their arrays, the shapes, and the expected outputs' index functions.
#include "debugging_grade.hpp"
#include "debugging_lab.hpp"
#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"
#include "debugging/debugging_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/runner.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/registration_checks.hpp"

#include <gtest/gtest.h>

#include <string>

// This test binary registers lab 07 alone (lab::find and the grader's helpers live beside
// find_lab, which asks for the registry).
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_07_debugging)

namespace cudalab::labs {
namespace {

namespace dbg = debugging;

TEST(debugging_lab, every_planted_bug_has_a_fixed_twin) {
  const lab l = make_lab_07_debugging();
  for (const char* bug : {"oob_write", "index_overflow", "missing_sync", "divergent_barrier",
                          "uninit_read", "unchecked_launch", "leak", "swapped_index"}) {
    const variant* buggy = l.find(bug);
    const variant* fixed = l.find(std::string(bug) + "_fixed");
    ASSERT_NE(buggy, nullptr) << bug;
    ASSERT_NE(fixed, nullptr) << bug;
    EXPECT_EQ(buggy->role, variant_role::buggy) << bug;
    EXPECT_EQ(fixed->role, variant_role::fixed) << bug;
  }
  EXPECT_EQ(l.find("checked_launch")->role, variant_role::buggy);
  EXPECT_EQ(l.find("global_race")->role, variant_role::buggy);
  EXPECT_EQ(l.find("global_race_atomic")->role, variant_role::fixed);
  EXPECT_EQ(l.find("global_race_privatised")->role, variant_role::fixed);
  EXPECT_EQ(l.find("exercise")->role, variant_role::exercise);
  EXPECT_EQ(l.variants.size(), 21u);
}

// The sanitizers judge the bugs; the counters (or the tracer standing in for them) hold the
// global traffic to the fixed blur's, run beside the exercise.
TEST(debugging_lab, the_checker_counts_traffic_against_the_fixed_blur) {
  const lab l = make_lab_07_debugging();
  ASSERT_TRUE(l.exercise);
  EXPECT_TRUE(l.exercise->needs_counters);
  EXPECT_EQ(l.exercise->reference_variants,
            (std::vector<std::string>{debugging_reference_variant}));
  EXPECT_EQ(l.exercise->size, debugging_default_size);
  EXPECT_EQ(testing::graded_variant_names(l),
            (std::vector<std::string>{"missing_sync", "missing_sync_fixed"}));
}

// The default size's tail block overshoots by 3907 * 256 - 1000003 = 189 floats (756 bytes),
// inside the 194,292 bytes its last 2 MiB page leaves.
TEST(debugging_lab, the_default_size_leaves_room_for_the_tail_blocks_overshoot) {
  const std::size_t bytes = debugging_default_size * sizeof(float);
  EXPECT_EQ(dbg::allocator_page - bytes % dbg::allocator_page, 194292u);
  for (unsigned block : {32u, 256u, 1024u}) {
    const std::size_t overshoot =
        ((debugging_default_size + block - 1) / block * block - debugging_default_size) * 4;
    EXPECT_TRUE(dbg::overshoot_fits_page_slack(bytes, overshoot)) << block;
  }
}

TEST(debugging_lab, sizes_without_slack_for_the_overshoot_are_refused) {
  EXPECT_FALSE(dbg::overshoot_fits_page_slack(4096, 4));  // less than a page: packed with others
  EXPECT_FALSE(dbg::overshoot_fits_page_slack(dbg::allocator_page * 2, 4));  // no slack at all
  EXPECT_FALSE(dbg::overshoot_fits_page_slack(dbg::allocator_page * 2 - 8, 12));
  EXPECT_TRUE(dbg::overshoot_fits_page_slack(dbg::allocator_page * 2 - 8, 8));
  const lab l = make_lab_07_debugging();
  // 1000 floats fill no page; the guarded twin takes any size.
  EXPECT_THROW(l.find("oob_write")->prepare(launch_config{1000, 256, 0}, nullptr), usage_error);
  EXPECT_THROW(l.find("exercise")->prepare(launch_config{1000, 256, 0}, nullptr), usage_error);
  // The runner asks before any work starts: 125001 floats fill no 2 MiB page.
  EXPECT_FALSE(l.find("oob_write")->config_violation(launch_config{125001, 256, 0}).empty());
  EXPECT_TRUE(
      l.find("oob_write")->config_violation(launch_config{debugging_default_size, 96, 0}).empty());
  EXPECT_FALSE(l.find("oob_write_fixed")->config_violation);
  run_request request;
  request.which = &l;
  request.variants = {l.find("oob_write_fixed"), l.find("oob_write")};
  request.sizes = {125001};
  request.gpu = false;
  EXPECT_THROW(run_lab(request), usage_error);
}

TEST(debugging_lab, the_2d_matrix_is_twice_as_wide_as_tall) {
  for (std::size_t size : {2u, 1000u, 20000u, 1000003u}) {
    const dbg::matrix_shape m = dbg::matrix_for(size);
    EXPECT_EQ(m.cols, 2 * m.rows) << size;
    EXPECT_LE(m.elements(), size) << size;
    EXPECT_GT(2 * (m.rows + 1) * (m.rows + 1), size) << size;
  }
  // The cuda-gdb walk-through's matrix (README, tests/debug): 100 x 200 at --size 20000.
  EXPECT_EQ(dbg::matrix_for(20000).rows, 100u);
}

TEST(debugging_lab, launch_shapes_are_checked_before_launching) {
  EXPECT_THROW(dbg::check_block(0), usage_error);
  EXPECT_THROW(dbg::check_block(1025), usage_error);
  EXPECT_THROW(dbg::check_block(48, 32), usage_error);
  EXPECT_NO_THROW(dbg::check_block(64, 32));
  const dbg::launch_dims d = dbg::matrix_dims(dbg::matrix_for(20000), 256);
  EXPECT_EQ(d.grid.x, 7u);   // ceil(200 / 32)
  EXPECT_EQ(d.grid.y, 13u);  // ceil(100 / 8)
  const lab l = make_lab_07_debugging();
  EXPECT_FALSE(l.find("divergent_barrier")->blocks.violation(48).empty());
  EXPECT_FALSE(l.find("uninit_read")->blocks.violation(96).empty());
  EXPECT_TRUE(l.find("uninit_read")->blocks.violation(128).empty());
}

TEST(debugging_lab, the_index_overflow_pair_needs_its_memory_whatever_the_size) {
  const lab l = make_lab_07_debugging();
  const launch_config c{1000, 256, 0};
  EXPECT_EQ(l.find("index_overflow_fixed")->device_bytes(c), overflow_elements);
  // The buggy one also holds the freed spacer its wrapped writes land in.
  EXPECT_EQ(l.find("index_overflow")->device_bytes(c),
            overflow_elements + (std::size_t{1} << 31) + (std::size_t{2} << 20));
  EXPECT_EQ(l.find("index_overflow")->grid(c).x, (overflow_elements + 255) / 256);
}

TEST(debugging_index, values_never_equal_the_poison) {
  for (std::int64_t i : {0LL, 254LL, 255LL, 1LL << 31, (1LL << 31) + 4095})
    EXPECT_NE(dbg::byte_value(i), 0) << i;
  EXPECT_EQ(dbg::ramp_value(0x10000), 0.5f);
  EXPECT_EQ(dbg::clamped(7, 5), 4u);
  EXPECT_EQ(dbg::left_of(0), 0u);
  EXPECT_EQ(dbg::pair_scaled(1.5f, 3), 4.5f);
}

}  // namespace
}  // namespace cudalab::labs

namespace cudalab::labs {
namespace {

// Without a GPU the table still shows each launch: the host's arithmetic, which the GPU run's
// shapes match (labs/07-debugging/figures/runs/default.txt: 1.0002x for a ceil-div grid, 0.9999x
// for uninit_read's rounded-down first pass, 0.2621x for the privatised histogram's 1024 blocks).
TEST(debugging_lab, the_host_knows_each_launch_but_the_exercises_and_the_failing_ones) {
  const lab l = make_lab_07_debugging();
  const launch_config c{debugging_default_size, 256, 0};
  const auto blocks_of = [&](const char* name) {
    const variant* v = l.find(name);
    EXPECT_TRUE(v && v->host_launch) << name;
    return v && v->host_launch ? v->host_launch(c).grid_x : 0;
  };
  EXPECT_EQ(blocks_of("oob_write"), 3907u);
  EXPECT_EQ(blocks_of("missing_sync_fixed"), 3907u);
  EXPECT_EQ(blocks_of("uninit_read"), 3906u);
  EXPECT_EQ(blocks_of("uninit_read_fixed"), 3907u);
  EXPECT_EQ(blocks_of("global_race_privatised"), 1024u);
  EXPECT_EQ(blocks_of("index_overflow"), ((std::size_t{1} << 31) + 4096) / 256);
  const launch_shape matrix = l.find("swapped_index")->host_launch(c);
  EXPECT_EQ(matrix.block_x, 32u);
  EXPECT_EQ(matrix.block_y, 8u);
  EXPECT_EQ(matrix.threads_needed, debugging::matrix_for(c.size).elements());
  // The learner may change the exercise's launch; the chunk reversals' launch is the lesson.
  for (const char* unknown :
       {"exercise", "unchecked_launch", "checked_launch", "unchecked_launch_fixed"})
    EXPECT_FALSE(l.find(unknown)->host_launch) << unknown;
}

}  // namespace
}  // namespace cudalab::labs
