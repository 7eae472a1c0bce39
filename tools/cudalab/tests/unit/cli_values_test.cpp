// What a learner types for sizes, blocks and sweeps, and every way it can be wrong.
#include "cli_values.hpp"
#include "cudalab/check.hpp"

#include <gtest/gtest.h>

namespace cudalab {
namespace {

TEST(parse_count, accepts_digits_suffixes_and_powers_of_two) {
  EXPECT_EQ(parse_count("--size", "1048576"), 1048576u);
  EXPECT_EQ(parse_count("--size", "1M"), 1048576u);
  EXPECT_EQ(parse_count("--size", "4k"), 4096u);
  EXPECT_EQ(parse_count("--size", "2G"), 2147483648u);
  EXPECT_EQ(parse_count("--size", "2^20"), 1048576u);
  EXPECT_EQ(parse_count("--size", " 7 "), 7u);
}

TEST(parse_count, rejects_zero_negative_non_numeric_and_overflow) {
  for (const char* bad : {"0", "-5", "abc", "", "1.5", "2^64", "3^4", "99999999999999999999999",
                          "20000000000000000G", "+4", "1MB", "0x10"}) {
    EXPECT_THROW(parse_count("--size", bad), usage_error) << bad;
  }
  EXPECT_EQ(parse_count("--sweep", "0", true), 0u);
}

TEST(parse_count, error_names_the_option_and_the_value) {
  try {
    parse_count("--size", "-5");
    FAIL() << "no exception";
  } catch (const usage_error& e) {
    EXPECT_STREQ(e.what(), "--size '-5': must be positive");
  }
}

TEST(parse_count_list, lists_and_doubling_ranges) {
  EXPECT_EQ(parse_count_list("--size", "1M,4M", range_step::doubling),
            (std::vector<std::size_t>{1 << 20, 4 << 20}));
  EXPECT_EQ(parse_count_list("--block", "64..1024", range_step::doubling),
            (std::vector<std::size_t>{64, 128, 256, 512, 1024}));
  EXPECT_EQ(parse_count_list("--size", "2^10..2^12", range_step::doubling),
            (std::vector<std::size_t>{1024, 2048, 4096}));
  EXPECT_EQ(parse_count_list("--block", "32..128:32", range_step::doubling),
            (std::vector<std::size_t>{32, 64, 96, 128}));
}

TEST(parse_count_list, unit_ranges_for_sweeps) {
  const auto v = parse_count_list("--sweep", "0..32", range_step::unit, true);
  ASSERT_EQ(v.size(), 33u);
  EXPECT_EQ(v.front(), 0u);
  EXPECT_EQ(v.back(), 32u);
}

TEST(parse_count_list, rejects_empty_reversed_and_huge_lists) {
  EXPECT_THROW(parse_count_list("--size", "", range_step::doubling), usage_error);
  EXPECT_THROW(parse_count_list("--size", "1M,", range_step::doubling), usage_error);
  EXPECT_THROW(parse_count_list("--size", "4M..1M", range_step::doubling), usage_error);
  EXPECT_THROW(parse_count_list("--sweep", "0..1000000", range_step::unit, true, 100), usage_error);
  EXPECT_THROW(parse_count_list("--block", "0..8", range_step::doubling, true), usage_error);
}

}  // namespace
}  // namespace cudalab
