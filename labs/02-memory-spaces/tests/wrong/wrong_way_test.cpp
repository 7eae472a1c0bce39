// `cudalab check 02` on wrong ways of doing the exercise (tests/wrong/*.cu), each built as the
// exercise of its own copy of the lab (cmake/cudalab_wrong_ways.cmake) with CUDALAB_WRONG_WAY
// naming it. Every wrong way gets the right sums; the grader must FAIL it, on the line that
// catches its shortcut.
#include "memory_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/testing/grader_tests.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#ifndef CUDALAB_WRONG_WAY
#error "compile with CUDALAB_WRONG_WAY=<name of the tests/wrong/ kernel>"
#endif
#define CUDALAB_NAME_OF(x) CUDALAB_NAME_OF_EXPANDED(x)
#define CUDALAB_NAME_OF_EXPANDED(x) #x

namespace {

// The line of the report (by its first words) that each wrong way must fail.
const std::map<std::string, std::string> failing_line = {
    {"accumulate_in_out", "global sectors"},  // out loaded and stored at every step
};

class memory_wrong_way : public cudalab::testing::counter_test {};

// One name per wrong way, so CTest lists each.
TEST_F(memory_wrong_way, CUDALAB_WRONG_WAY) {
  const std::string way = CUDALAB_NAME_OF(CUDALAB_WRONG_WAY);
  const auto expected = failing_line.find(way);
  ASSERT_NE(expected, failing_line.end()) << way << " has no expected failing line here";

  cudalab::testing::expect_wrong_way_fails(cudalab::labs::make_lab_02_memory_spaces(), way,
                                           expected->second);
}

}  // namespace
