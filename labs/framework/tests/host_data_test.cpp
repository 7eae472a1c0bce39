// The labs' pseudo-random inputs: reproducible from the seed on any standard library, inside
// the range, never zero (a zero input hides an unwritten output).
#include "cudalab/host_data.hpp"

#include "cudalab/check.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace cudalab {
namespace {

TEST(host_data, the_same_seed_gives_the_same_floats_and_another_seed_others) {
  EXPECT_EQ(random_floats(1000, 7), random_floats(1000, 7));
  EXPECT_NE(random_floats(1000, 7), random_floats(1000, 8));
}

TEST(host_data, floats_stay_in_their_range_and_are_never_zero) {
  const auto v = random_floats(100000, 3, -1.0f, 1.0f);
  for (float x : v) {
    ASSERT_GE(x, -1.0f);
    ASSERT_LT(x, 1.0f);
    ASSERT_NE(x, 0.0f);
  }
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  EXPECT_LT(*lo, -0.99f);  // the whole range is used
  EXPECT_GT(*hi, 0.99f);
}

TEST(host_data, uints_cover_both_ends_of_a_small_range) {
  const auto v = random_uints(10000, 5, 1, 254);
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  EXPECT_EQ(*lo, 1u);
  EXPECT_EQ(*hi, 254u);
  EXPECT_EQ(random_uints(3, 5, 9, 9), (std::vector<std::uint32_t>{9, 9, 9}));
}

TEST(host_data, an_empty_range_is_a_usage_error) {
  EXPECT_THROW(random_floats(1, 1, 1.0f, 1.0f), usage_error);
  EXPECT_THROW(random_uints(1, 1, 2, 1), usage_error);
}

}  // namespace
}  // namespace cudalab
