// Which GPUs find code in a build, and what the kit tells a GPU that finds none: the driver's
// rules for SASS and PTX, decided on the CPU for any list CMAKE_CUDA_ARCHITECTURES may hold.
#include "cudalab/kernel_image.hpp"
#include "cudalab/check.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>

namespace cudalab {
namespace {

std::vector<cuda_architecture> list(std::string_view text) {
  return parse_cuda_architectures(text);
}

// A build of `archs` on a GPU of compute capability major.minor, and the image it runs.
struct image_case {
  const char* archs;
  int major;
  int minor;
  kernel_image expected;
};
void expect_images(std::initializer_list<image_case> cases) {
  for (const image_case& c : cases)
    EXPECT_EQ(find_kernel_image(list(c.archs), c.major, c.minor), c.expected)
        << c.archs << " on " << c.major << "." << c.minor;
}

TEST(cuda_architectures, a_plain_number_holds_sass_and_ptx) {
  EXPECT_EQ(list("90"), (std::vector<cuda_architecture>{{90, true, true, false}}));
}

TEST(cuda_architectures, real_virtual_and_specific_suffixes_parse) {
  EXPECT_EQ(list("80;90-real;100a-virtual"),
            (std::vector<cuda_architecture>{
                {80, true, true, false}, {90, true, false, false}, {100, false, true, true}}));
  EXPECT_EQ(list("80,90a"),
            (std::vector<cuda_architecture>{{80, true, true, false}, {90, true, true, true}}));
}

TEST(cuda_architectures, entries_cmake_would_refuse_are_rejected) {
  for (const char* bad : {"", ";", "sm_90", "90-fake", "native", "9x"})
    EXPECT_THROW(list(bad), std::invalid_argument) << '"' << bad << '"';
}

TEST(cuda_architectures, describe_uses_nvcc_names) {
  EXPECT_EQ(describe(list("80-real;90")), "sm_80, sm_90 + PTX compute_90");
  EXPECT_EQ(describe(list("90a-virtual")), "PTX compute_90a");
}

TEST(kernel_image, sass_runs_on_the_same_major_and_a_newer_minor) {
  expect_images({{"90-real", 9, 0, kernel_image::sass},
                 {"80-real", 8, 6, kernel_image::sass},
                 {"86-real", 8, 0, kernel_image::none},
                 {"80-real", 9, 0, kernel_image::none}});
}

TEST(kernel_image, ptx_is_compiled_for_any_newer_gpu) {
  expect_images({{"90", 10, 0, kernel_image::ptx},
                 {"75-virtual", 8, 9, kernel_image::ptx},
                 {"90-virtual", 8, 0, kernel_image::none}});
}

TEST(kernel_image, sass_wins_over_ptx_when_both_fit) {
  expect_images({{"75;89-real", 8, 9, kernel_image::sass}});
}

TEST(kernel_image, architecture_specific_code_runs_on_that_gpu_alone) {
  expect_images({{"90a", 9, 0, kernel_image::sass},
                 {"90a", 10, 0, kernel_image::none},
                 {"90a-virtual", 9, 0, kernel_image::ptx}});
}

TEST(kernel_image, a_gpu_with_code_needs_no_advice) {
  EXPECT_FALSE(check_kernel_image(list("90"), 9, 0, "NVIDIA H100 80GB HBM3").has_value());
}

TEST(kernel_image, a_gpu_without_code_is_told_the_architecture_and_the_command) {
  const auto missing = check_kernel_image(list("90"), 8, 0, "NVIDIA A100-SXM4-80GB");
  ASSERT_TRUE(missing.has_value());
  EXPECT_EQ(missing->what,
            "this build has no GPU code for the NVIDIA A100-SXM4-80GB (compute capability 8.0)");
  EXPECT_EQ(missing->fix.rfind("it holds sm_90 + PTX compute_90 only; ", 0), 0) << missing->fix;
  EXPECT_NE(missing->fix.find("build for sm_80: `cmake --preset release "
                              "-DCMAKE_CUDA_ARCHITECTURES=80 && cmake --build --preset release`"),
            std::string::npos)
      << missing->fix;
  EXPECT_NE(missing->fix.find("`CUDAARCHS=80 scripts/setup.sh`"), std::string::npos)
      << missing->fix;
}

// The tool prints "cudalab: " and the error on one line and wraps the fix; the line must fit
// its 120 columns for a long GPU name and a build for many architectures.
TEST(kernel_image, the_error_line_fits_120_columns_for_a_long_gpu_name) {
  const auto missing = check_kernel_image(list("75-real;80-real;86-real;89-real;90-real;120-real"),
                                          10, 3, "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  ASSERT_TRUE(missing.has_value());
  EXPECT_LE(std::string("cudalab: ").size() + missing->what.size(), 120u) << missing->what;
}

TEST(kernel_image, a_gpu_older_than_cuda_13_supports_gets_no_build_command) {
  const auto missing = check_kernel_image(list("90"), 7, 0, "Tesla V100-SXM2-32GB");
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->fix.find("7.5 and newer"), std::string::npos) << missing->fix;
  EXPECT_EQ(missing->fix.find("cmake"), std::string::npos) << missing->fix;
}

TEST(kernel_image, this_build_records_the_architectures_it_was_built_for) {
  const std::vector<cuda_architecture>& built = built_cuda_architectures();
  ASSERT_FALSE(built.empty());
  for (const auto& a : built) {
    EXPECT_GE(a.number, 75) << describe(built);
    if (a.sass) {
      EXPECT_NO_THROW(require_kernel_image(a.number / 10, a.number % 10, "this GPU"));
    }
  }
}

TEST(kernel_image, require_refuses_a_gpu_this_build_cannot_run_before_any_work) {
  try {
    require_kernel_image(5, 0, "Quadro M6000");
    FAIL() << "sm_50 found code in " << describe(built_cuda_architectures());
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("Quadro M6000 (compute capability 5.0)"),
              std::string::npos)
        << e.what();
    EXPECT_FALSE(e.hint().empty());
  }
}

}  // namespace
}  // namespace cudalab
