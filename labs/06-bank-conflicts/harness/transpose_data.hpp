// Lab 06's host data: deterministic inputs, and the check of a downloaded result against the
// input it moved (a transpose or a copy moves values, so the check is exact, bit for bit).
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>
#include <vector>

namespace cudalab::labs::transpose_data {

// What a kernel writes: the input as it is (rows x cols), or its transpose (cols x rows).
enum class result_shape { copy, transpose };

// Input element i (row-major): a pseudo-random value in (-1, 1), never 0, a function of i alone.
// The doubles use 52 bits of mantissa, so a kernel that moved them through a float would fail.
template <class T>
T input_value(std::size_t i);

// A padded input buffer (transpose::padded_elements(rows, cols) elements): the matrix, then NaN.
template <class T>
std::vector<T> make_input(std::size_t rows, std::size_t cols);

// Checks the first rows x cols elements of `out` (a padded buffer) against the input, moved as
// `shape` says, and that the band after them still holds the poison (0xFF bytes) written before
// the launch.
template <class T>
verify_result verify(result_shape shape, std::size_t rows, std::size_t cols,
                     const std::vector<T>& out);

// The transpose on the CPU, into a padded buffer: what verify() must accept.
template <class T>
void cpu_transpose(const std::vector<T>& in, std::vector<T>& out, std::size_t rows,
                   std::size_t cols);

}  // namespace cudalab::labs::transpose_data
