// Lab 05 as the tool registers it: the factory harness/lab.cpp defines.
#pragma once

#include "cudalab/lab.hpp"

namespace cudalab::labs {

lab make_lab_05_reduction();

}  // namespace cudalab::labs
