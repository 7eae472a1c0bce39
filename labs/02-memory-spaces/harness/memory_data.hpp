// Lab 02's host data: the inputs, the coefficient table and the double-precision reference
// every variant is checked against.
#pragma once

#include "memory_variants.hpp"

#include "cudalab/lab.hpp"

#include <cstddef>
#include <vector>

namespace cudalab::labs::memory_data {

// x in [-1, 1): the polynomial's powers stay bounded; never all zero.
std::vector<float> make_x(std::size_t n);
// constant_table_floats coefficients in [0.5, 1.5): set s, coefficient k at coefficient_index.
std::vector<float> coefficient_table();
// The expected output of element i for x[i] = x, in double.
double reference(memory_output output, const std::vector<float>& table, float x, std::size_t i);
// Compares `got` (n floats) with the reference of every element.
verify_result verify(memory_output output, const std::vector<float>& table,
                     const std::vector<float>& x, const std::vector<float>& got);

}  // namespace cudalab::labs::memory_data
