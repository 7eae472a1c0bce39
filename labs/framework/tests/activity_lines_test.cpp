// The grader's lines on what the exercise's launch ran (graded_activity.hpp), from inventories
// written by hand: a library's kernel, a copy, a launch that ran nothing, an inventory that
// could not be taken. The recording itself is tested on the GPU (gpu_activity_gpu_test).
#include "cudalab/graded_activity.hpp"
#include "cudalab/kernel_name.hpp"
#include "cudalab/testing/grade_checks.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab {
namespace {

bool ends_with(const std::string& s, const std::string& end) {
  return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

gpu_activity ran(std::vector<launched_kernel> kernels, std::vector<data_movement> copies = {}) {
  gpu_activity a;
  a.available = true;
  a.kernels = std::move(kernels);
  a.copies = std::move(copies);
  return a;
}

const launched_kernel own_kernel{"cudalab::labs::transpose_exercise_kernel", "cudalab", true};

TEST(activity_lines, the_exercises_own_kernel_and_no_copies_pass) {
  grade_report r;
  add_activity_lines(r, ran({own_kernel}), {ran({own_kernel})});
  ASSERT_EQ(r.lines.size(), 2u);
  EXPECT_EQ(cudalab::testing::printed(r, "kernels"),
            "kernels 1, all the exercise's own (transpose_exercise_kernel)  ok");
  EXPECT_EQ(cudalab::testing::printed(r, "copies_and_memsets"),
            "copies and memsets 0 <= 0 (the references' launches)  ok");
  EXPECT_TRUE(r.passed());
  EXPECT_TRUE(r.hint().empty());
}

TEST(activity_lines, a_librarys_kernel_fails_naming_it_and_its_library) {
  grade_report r;
  add_activity_lines(r,
                     ran({{"sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x8",
                           "libcublasLt.so.13", false}}),
                     {});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(cudalab::testing::printed(r, "kernels")
                .rfind("kernels 1, not the exercise's own: sm90_xmma_gemm", 0),
            0u)
      << cudalab::testing::printed(r, "kernels");
  EXPECT_NE(cudalab::testing::printed(r, "kernels").find("(libcublasLt.so.13)"), std::string::npos)
      << cudalab::testing::printed(r, "kernels");
  EXPECT_FALSE(cudalab::testing::line_of(r, "kernels").ok);
  EXPECT_LE(cudalab::testing::printed(r, "kernels").size(), 120u);
  EXPECT_NE(r.hint().find("library"), std::string::npos);
}

TEST(activity_lines, kernels_read_by_their_own_names) {
  grade_report r;
  add_activity_lines(
      r,
      ran({{"cudalab::matmul::{anonymous}::tiled_kernel<16u>", "cudalab", true},
           {"cudalab::labs::finish_kernel<cudalab::labs::sum_of<float>>", "cudalab", true}}),
      {}, false);
  EXPECT_EQ(cudalab::testing::printed(r, "kernels"),
            "kernels 2, all the exercise's own (tiled_kernel<16u>, "
            "finish_kernel<cudalab::labs::sum_of<float>>)  ok");
}

TEST(activity_lines, a_copy_the_references_do_not_make_fails) {
  grade_report r;
  add_activity_lines(
      r, ran({own_kernel}, {{"copy device to device", 4}, {"copy device to device", 4}}),
      {ran({own_kernel})});
  EXPECT_FALSE(r.passed());
  EXPECT_TRUE(cudalab::testing::line_of(r, "kernels").ok);
  EXPECT_EQ(cudalab::testing::printed(r, "copies_and_memsets").rfind("copies and memsets 2 (", 0),
            0u)
      << cudalab::testing::printed(r, "copies_and_memsets");
  EXPECT_TRUE(ends_with(cudalab::testing::printed(r, "copies_and_memsets"),
                        "<= 0 (the references' launches)  FAIL"))
      << cudalab::testing::printed(r, "copies_and_memsets");
  EXPECT_NE(r.hint().find("copy device to device"), std::string::npos);
}

TEST(activity_lines, copies_the_references_make_too_pass) {
  grade_report r;
  add_activity_lines(r, ran({own_kernel}, {{"memset", 1024}}),
                     {ran({own_kernel}, {{"memset", 1024}})});
  EXPECT_TRUE(r.passed()) << cudalab::testing::printed(r, "copies_and_memsets");
}

TEST(activity_lines, a_launch_that_ran_no_kernel_fails) {
  grade_report r;
  add_activity_lines(r, ran({}), {});
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(cudalab::testing::printed(r, "kernels"), "kernels 0: none ran  FAIL");
}

TEST(activity_lines, an_inventory_that_could_not_be_taken_fails_saying_why) {
  grade_report r;
  gpu_activity none;
  none.reason = "CUPTI is held by another tool";
  add_activity_lines(r, none, {});
  EXPECT_FALSE(r.passed());
  ASSERT_EQ(r.lines.size(), 1u);
  EXPECT_EQ(cudalab::testing::printed(r, "kernels"),
            "kernels n/a: CUPTI is held by another tool  FAIL");
}

TEST(activity_lines, the_labs_own_kernels_are_not_the_exercises) {
  // An exercise whose launcher calls the kit's reference launcher (reduction::launch_sequential).
  const launched_kernel kits{"cudalab::reduction::reduce_sequential_kernel<float>", "cudalab",
                             true};
  grade_report r;
  add_activity_lines(r, ran({kits}), {}, true);
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(cudalab::testing::printed(r, "kernels"),
            "kernels 1, not the exercise's own: reduce_sequential_kernel<float> (the lab's own "
            "kernel)  FAIL");
  // The same kernel graded as the fixed variant it is (the grader's tests) is its own.
  grade_report fixed;
  add_activity_lines(fixed, ran({kits}), {}, false);
  EXPECT_TRUE(fixed.passed()) << cudalab::testing::printed(fixed, "kernels");
}

TEST(activity_lines, a_wrong_answer_from_the_inventoried_launch_fails) {
  grade_report r;
  const verify_result wrong{false, "block 3: 7 != 9"};
  add_activity_lines(r, ran({own_kernel}), {}, true, &wrong);
  EXPECT_FALSE(r.passed());
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(cudalab::testing::printed(r, "inventoried_launch_correct"),
            "the inventoried launch correct: block 3: 7 != 9  FAIL");
  EXPECT_NE(r.hint().find("every launch must compute the result"), std::string::npos);
  grade_report right;
  const verify_result ok{true, "exact"};
  add_activity_lines(right, ran({own_kernel}), {}, true, &ok);
  EXPECT_TRUE(right.passed());
  EXPECT_EQ(right.lines.size(), 2u);
}

TEST(kernel_names, library_templates_are_not_the_learners_own) {
  EXPECT_TRUE(is_library_kernel_name("mine::cub::CUB_300000_SM_900::DeviceReduceKernel<int>"));
  EXPECT_FALSE(is_library_kernel_name("cudalab::labs::tiled<cub::Sum>"));
  EXPECT_TRUE(
      is_library_kernel_name("cub::CUB_300000_SM_900::detail::reduce::DeviceReduceKernel<int>"));
  EXPECT_TRUE(is_library_kernel_name("thrust::cuda_cub::core::_kernel_agent<int>"));
  EXPECT_TRUE(is_library_kernel_name("cutlass::Kernel2<int>"));
  EXPECT_FALSE(is_library_kernel_name("cudalab::labs::reduce_kernel<256>"));
  EXPECT_FALSE(is_library_kernel_name("my_cub_like_kernel"));
}

TEST(kernel_names, mangled_names_read_without_their_parameters) {
  EXPECT_EQ(kernel_display_name("_ZN7cudalab4labs25transpose_exercise_kernelEPKfPfjj"),
            "cudalab::labs::transpose_exercise_kernel");
  EXPECT_EQ(kernel_display_name("sm90_xmma_gemm_f32f32"), "sm90_xmma_gemm_f32f32");
  EXPECT_EQ(kernel_display_name(static_cast<const char*>(nullptr)), "(unnamed kernel)");
}

}  // namespace
}  // namespace cudalab
