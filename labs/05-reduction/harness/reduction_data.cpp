// Lab 05 host data: see reduction_data.hpp for the rules and the reasons behind them.
#include "reduction_data.hpp"

#include "cudalab/format_text.hpp"
#include "cudalab/host_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace cudalab::labs::reduction_data {
namespace {

std::uint64_t draw(std::uint64_t seed, std::size_t i) {
  return splitmix64(splitmix64(varied_seed(seed)) ^ i);
}

}  // namespace

std::vector<float> make_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = 0.5f + static_cast<float>(draw(seed, i) >> 40) * 0x1p-24f;  // [0.5, 1.5), exact
  return v;
}

std::vector<int> make_ints(std::size_t n, std::uint64_t seed) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = 1 + static_cast<int>(draw(seed, i) % 7);
  return v;
}

double reference_sum(const std::vector<float>& v, std::size_t first, std::size_t count) {
  const std::size_t last = std::min(v.size(), first + std::min(count, v.size() - first));
  double sum = 0;
  for (std::size_t i = first; i < last; ++i) sum += v[i];
  return sum;
}

std::int64_t reference_sum(const std::vector<int>& v, std::size_t first, std::size_t count) {
  const std::size_t last = std::min(v.size(), first + std::min(count, v.size() - first));
  std::int64_t sum = 0;
  for (std::size_t i = first; i < last; ++i) sum += v[i];
  return sum;
}

double total_rel_tol(std::size_t n) {
  return 1e-5 * std::max(1.0, std::log2(static_cast<double>(n)));
}

verify_result verify_partials(const std::vector<float>& in, const std::vector<float>& partial,
                              std::size_t per_block) {
  double worst = 0;
  std::size_t worst_block = 0, bad = 0;
  double total = 0;
  for (std::size_t b = 0; b < partial.size(); ++b) {
    const double expected = reference_sum(in, b * per_block, per_block);
    const double err = std::fabs(partial[b] - expected) / expected;
    total += partial[b];
    if (!(err <= block_rel_tol)) ++bad;  // NaN (a poisoned, unwritten partial) fails
    if (!(err <= worst)) {
      worst = std::isnan(err) ? INFINITY : err;
      worst_block = b;
    }
  }
  if (bad > 0) {
    return {false, std::to_string(bad) + " of " + std::to_string(partial.size()) +
                       " block sums wrong; block " + std::to_string(worst_block) +
                       formatted(": rel err %.2g > %.0e", worst, block_rel_tol)};
  }
  verify_result t = verify_total(in, total);
  t.detail = formatted("blocks: max rel err %.2g <= %.0e; ", worst, block_rel_tol) + t.detail;
  return t;
}

verify_result verify_partials(const std::vector<int>& in, const std::vector<int>& partial,
                              std::size_t per_block) {
  std::int64_t total = 0;
  for (std::size_t b = 0; b < partial.size(); ++b) {
    const std::int64_t expected = reference_sum(in, b * per_block, per_block);
    if (partial[b] != expected)
      return {false, "block " + std::to_string(b) + " sums to " + std::to_string(partial[b]) +
                         ", expected " + std::to_string(expected)};
    total += partial[b];
  }
  return verify_total(in, total);
}

verify_result verify_total(const std::vector<float>& in, double got) {
  const double expected = reference_sum(in);
  const double err = std::fabs(got - expected) / expected;
  const double tol = total_rel_tol(in.size());
  const bool ok = err <= tol;
  return {ok, formatted(ok ? "sum rel err %.2g <= %.1g" : "sum rel err %.2g > %.1g", err, tol) +
                  (ok ? "" : formatted(" (got %.9g, expected %.9g)", got, expected))};
}

verify_result verify_total(const std::vector<int>& in, std::int64_t got) {
  const std::int64_t expected = reference_sum(in);
  if (got != expected)
    return {false, "sum " + std::to_string(got) + ", expected " + std::to_string(expected) +
                       " (integers must match exactly)"};
  return {true, "sum exact (" + std::to_string(got) + ")"};
}

}  // namespace cudalab::labs::reduction_data
