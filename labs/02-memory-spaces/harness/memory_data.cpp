// Lab 02's host data (memory_data.hpp).
#include "memory_data.hpp"

#include "memory_lab.hpp"

#include "memory/memory_index.cuh"

#include "cudalab/host_data.hpp"

namespace cudalab::labs::memory_data {
namespace {

namespace mem = cudalab::memory;

// FP32 Horner over 16 terms and the 16-term spill sum stay within 1e-5 of the double reference,
// relative; the absolute floor covers outputs that cancel to near zero.
constexpr double rel_tol = 1e-5;
constexpr double abs_tol = 1e-3;

}  // namespace

std::vector<float> make_x(std::size_t n) { return random_floats(n, 0x0202, -1.0f, 1.0f); }

std::vector<float> coefficient_table() {
  return random_floats(mem::constant_table_floats, 0x0203, 0.5f, 1.5f);
}

double reference(memory_output output, const std::vector<float>& table, float x, std::size_t i) {
  if (output == memory_output::spill_sum) {
    double sum = 0;
    for (unsigned k = 0; k < mem::spill_words; ++k)
      sum += static_cast<double>(mem::spill_slot(k, spill_step) + 1) *
             static_cast<double>(mem::spill_value(x, k));
    return sum;
  }
  const unsigned set = mem::coefficient_set(i, output == memory_output::divergent_polynomial);
  double acc = 0;
  for (int k = mem::poly_terms - 1; k >= 0; --k)
    acc = acc * x + table[mem::coefficient_index(set, static_cast<unsigned>(k))];
  return acc;
}

verify_result verify(memory_output output, const std::vector<float>& table,
                     const std::vector<float>& x, const std::vector<float>& got) {
  std::vector<double> expected(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) expected[i] = reference(output, table, x[i], i);
  return compare_floats(got.data(), expected.data(), x.size(), rel_tol, abs_tol);
}

}  // namespace cudalab::labs::memory_data
