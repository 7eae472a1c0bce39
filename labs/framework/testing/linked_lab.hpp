// What the generated grader tests share (cmake/cudalab_graded_tests.cmake): the lab this test
// binary is built for, named by CUDALAB_MAKE_LAB (its factory, make_lab_06_bank_conflicts), as the
// one lab of the registry and as the_lab(). Include once, from those test sources.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/testing/one_lab_registry.hpp"

#if !defined(CUDALAB_MAKE_LAB)
#error "compile with CUDALAB_MAKE_LAB=<the lab's factory>"
#endif

namespace cudalab::labs {
lab CUDALAB_MAKE_LAB();
}

CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::CUDALAB_MAKE_LAB)

namespace cudalab::testing {

// The lab, made once.
inline const lab& the_lab() {
  static const lab l = labs::CUDALAB_MAKE_LAB();
  return l;
}

}  // namespace cudalab::testing
