// A lab's test binary links that lab's library alone, so it defines the registry itself
// (lab.hpp's all_labs): lab::find, find_lab, the runner and the grader ask for it.
#pragma once

#include "cudalab/lab.hpp"

#include <vector>

// Defines cudalab::all_labs() as the one lab that `make_lab` (a qualified name) builds.
#define CUDALAB_REGISTRY_OF_ONE_LAB(make_lab)             \
  namespace cudalab {                                     \
  const std::vector<lab>& all_labs() {                    \
    static const std::vector<lab> registered{make_lab()}; \
    return registered;                                    \
  }                                                       \
  }
