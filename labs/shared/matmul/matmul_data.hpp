// The matrix-product labs' host data (labs 03 and 08): deterministic inputs, the
// double-precision reference product and the check of a computed C against it.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace cudalab::labs::matmul_data {

// Element i of input matrix `which` (0: A, 1: B): a pseudo-random float in [-1, 1), never 0,
// a function of (which, i) alone.
float input_value(unsigned which, std::size_t i);

// A padded input buffer (matmul::padded_elements(n) floats): n x n values, then NaN. The
// band is what the unguarded kernel reads past the matrix, so its mistake cannot add zeros.
std::vector<float> make_input(unsigned which, std::size_t n);

// The largest side checked output by output: the double-precision reference is O(n^3), a few
// seconds on the cores at 2048. Above it the check is sampled (sampled_outputs).
inline constexpr std::size_t full_check_max_side = 2048;

// The outputs a sampled check compares, as row-major indices: every output of a fixed set of
// rows and of columns (the first ones, both sides of the 64- and 128-wide tile boundaries, the
// middle and the last two: where the kernels' edges and tiles meet), then `random_outputs`
// pseudo-random ones, a function of n alone. Sorted, no repeats.
inline constexpr std::size_t random_outputs = 4096;
std::vector<std::size_t> sampled_outputs(std::size_t n);

// The exact product in double, and the product of the absolute values (the scale of the
// rounding error of each output), computed once per n over the cores and shared. `index` lists
// the outputs held (sampled_outputs(n)) above full_check_max_side; empty: all n x n, in order.
struct reference {
  std::vector<std::size_t> index;
  std::vector<double> c;
  std::vector<double> c_abs;
  bool sampled() const { return !index.empty(); }
};
std::shared_ptr<const reference> reference_for(std::size_t n);

// The tolerance of an FP32 dot product of length n, relative to the sum of |a_ik b_kj|: n
// roundings of 2^-24 at worst.
double tolerance(std::size_t n);

// Checks the first n x n floats of `c` (a padded buffer) against the reference (the sampled
// outputs above full_check_max_side, said as `sampled` in the detail), and that the band after
// them still holds the poison (0xFF bytes) written before the launch.
verify_result verify_product(std::size_t n, const std::vector<float>& c);

// The CPU baseline's product: one core, float, rows of B streamed (i, k, j order).
void cpu_product(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                 std::size_t n);

}  // namespace cudalab::labs::matmul_data
