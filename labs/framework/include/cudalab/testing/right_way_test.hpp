// The test of a lab's right ways (tests/right/right_way_test.cpp): honest alternatives to the
// solution (another instruction, another layout of the same technique), each built as the
// exercise of its own copy of the lab (cmake/cudalab_wrong_ways.cmake) with CUDALAB_RIGHT_WAY
// naming it. Each must get the right answer and PASS every line: a grader that refuses good
// work teaches the wrong lesson. Include only from that test source.
#pragma once

#include "cudalab/testing/grader_tests.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <iostream>

#ifndef CUDALAB_RIGHT_WAY
#error "compile with CUDALAB_RIGHT_WAY=<name of the tests/right/ kernel>"
#endif

// The test `suite`.<right way>, one name a right way so that CTest lists each.
#define CUDALAB_RIGHT_WAY_TEST(suite, make_lab)                                  \
  class suite : public ::cudalab::testing::counter_test {};                      \
  TEST_F(suite, CUDALAB_RIGHT_WAY) {                                             \
    const ::cudalab::grade_outcome o = ::cudalab::grade_exercise(make_lab(), 0); \
    std::cout << ::cudalab::testing::describe(o) << "\n";                        \
    EXPECT_TRUE(o.exercise.verification.ok) << o.exercise.verification.detail;   \
    ::cudalab::testing::expect_every_line_passes(o, "exercise");                 \
  }
