#include "cudalab/host_data.hpp"

#include <cmath>
#include <cstdio>
#include <random>

namespace cudalab {

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (auto& x : v) {
    do x = dist(rng);
    while (x == 0.0f);
  }
  return v;
}

std::vector<std::uint32_t> random_uints(std::size_t n, std::uint64_t seed, std::uint32_t lo,
                                        std::uint32_t hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> dist(lo, hi);
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

verify_result compare_floats(const float* got, const double* expected, std::size_t n,
                             double rel_tol, double abs_tol) {
  std::size_t bad = 0, worst = 0;
  double worst_excess = -1, worst_err = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double err = std::fabs(static_cast<double>(got[i]) - expected[i]);
    const double allowed = abs_tol + rel_tol * std::fabs(expected[i]);
    const bool ok = err <= allowed;  // false for NaN
    if (!ok) ++bad;
    const double excess = std::isnan(err) ? INFINITY : err - allowed;
    if (excess > worst_excess) {
      worst_excess = excess;
      worst = i;
      worst_err = err;
    }
  }
  char buf[256];
  if (n == 0) return {true, "nothing to compare"};
  if (bad == 0) {
    std::snprintf(buf, sizeof buf, "max err %.2g <= %.1g rel", worst_err, rel_tol);
    return {true, buf};
  }
  std::snprintf(buf, sizeof buf, "%zu of %zu wrong; [%zu] = %.9g, expected %.9g (tol %.1g rel)", bad,
                n, worst, static_cast<double>(got[worst]), expected[worst], rel_tol);
  return {false, buf};
}

std::size_t count_overwritten(const std::uint32_t* band, std::size_t count) {
  std::size_t changed = 0;
  for (std::size_t i = 0; i < count; ++i) changed += band[i] != canary_word;
  return changed;
}

}  // namespace cudalab
