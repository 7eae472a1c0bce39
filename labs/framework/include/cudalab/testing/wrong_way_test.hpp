// The test of a lab's wrong ways (tests/wrong/wrong_way_test.cpp): each wrong way is built as
// the exercise of its own copy of the lab (cmake/cudalab_wrong_ways.cmake), with
// CUDALAB_WRONG_WAY naming it, and must get the right answer and still FAIL the grader, on the
// line that catches its shortcut. Include only from that test source.
#pragma once

#include "cudalab/testing/grader_tests.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#ifndef CUDALAB_WRONG_WAY
#error "compile with CUDALAB_WRONG_WAY=<name of the tests/wrong/ kernel>"
#endif
#define CUDALAB_NAME_OF(x) CUDALAB_NAME_OF_EXPANDED(x)
#define CUDALAB_NAME_OF_EXPANDED(x) #x

namespace cudalab::testing {

// Grades the wrong way this binary links as the exercise of `l`; `failing_lines` maps each
// wrong way of the lab to the first words of the report line it must fail.
inline void expect_linked_wrong_way_fails(const lab& l,
                                          const std::map<std::string, std::string>& failing_lines) {
  const std::string way = CUDALAB_NAME_OF(CUDALAB_WRONG_WAY);
  const auto expected = failing_lines.find(way);
  ASSERT_NE(expected, failing_lines.end()) << way << " has no expected failing line here";
  expect_wrong_way_fails(l, way, expected->second);
}

}  // namespace cudalab::testing

// The test `suite`.<wrong way>, one name a wrong way so that CTest lists each; the arguments
// after `make_lab` are the {wrong way, failing line} pairs of the lab.
#define CUDALAB_WRONG_WAY_TEST(suite, make_lab, ...)                  \
  class suite : public ::cudalab::testing::counter_test {};           \
  TEST_F(suite, CUDALAB_WRONG_WAY) {                                  \
    ::cudalab::testing::expect_linked_wrong_way_fails(                \
        make_lab(), std::map<std::string, std::string>{__VA_ARGS__}); \
  }
