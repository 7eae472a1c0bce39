// formatted and joined: the one formatter and joiner behind the graders' lines and messages.
#include "cudalab/format_text.hpp"

#include <gtest/gtest.h>

namespace cudalab {
namespace {

TEST(format_text, formats_any_length) {
  EXPECT_EQ(formatted("ld sectors/request %.2f <= %.2f", 12.0, 4.0),
            "ld sectors/request 12.00 <= 4.00");
  EXPECT_EQ(formatted("%s", std::string(5000, 'x').c_str()).size(), 5000u);  // no fixed buffer
  EXPECT_EQ(formatted("%.0f", 2.5e9), "2500000000");
}

TEST(format_text, joins_with_the_separator) {
  EXPECT_EQ(joined({"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(joined({"a"}), "a");
  EXPECT_EQ(joined({}), "");
  EXPECT_EQ(joined({"", "b"}, "|"), "|b");  // an empty first item still takes its place
}

}  // namespace
}  // namespace cudalab
