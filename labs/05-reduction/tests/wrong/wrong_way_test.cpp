// `cudalab check 05` on wrong ways of doing the exercise (tests/wrong/*.cu), each built as the
// exercise of its own copy of the lab (cmake/cudalab_wrong_ways.cmake) with CUDALAB_WRONG_WAY
// naming it. Every wrong way gets the right sums; the grader must FAIL it, on the line that
// catches its shortcut.
#include "cudalab/lab.hpp"
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

namespace cudalab {
namespace labs {
lab make_lab_05_reduction();
}

// This test binary registers lab 05 alone, built against the wrong way it links.
const std::vector<lab>& all_labs() {
  static const std::vector<lab> labs{labs::make_lab_05_reduction()};
  return labs;
}
}  // namespace cudalab

namespace {

// The line of the report (by its first words) that each wrong way must fail.
const std::map<std::string, std::string> failing_line = {
    {"atomic_block_sum", "global writes"},       // 8 REDG and a store a block
    {"warp_atomic_sum", "global writes"},        // a REDG a warp
    {"shared_atomic_sum", "shared wavefronts"},  // a CAS loop re-reading the shared word
};

class reduction_wrong_way : public cudalab::testing::counter_test {};

// One name per wrong way, so CTest lists each.
TEST_F(reduction_wrong_way, CUDALAB_WRONG_WAY) {
  const std::string way = CUDALAB_NAME_OF(CUDALAB_WRONG_WAY);
  const auto expected = failing_line.find(way);
  ASSERT_NE(expected, failing_line.end()) << way << " has no expected failing line here";

  cudalab::testing::expect_wrong_way_fails(cudalab::labs::make_lab_05_reduction(), way,
                                           expected->second);
}

}  // namespace
