#include "cudalab/host_data.hpp"

#include "cudalab/check.hpp"

#include <cmath>
#include <cstdio>

namespace cudalab {

namespace {

// splitmix64 (Steele, Lea and Flood 2014): one add and three multiply-xorshift rounds per
// value. Chosen over std::mt19937_64 with std::uniform_*_distribution for two reasons: the
// standard distributions are implementation-defined, so the same seed gave different inputs
// under libstdc++ and libc++; and filling lab 04's 71 inputs at 1M elements took 1.8 s with
// them, longer than the GPU work.
class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) : m_state(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (m_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1) on the 2^24 floats of that spacing.
  float unit_float() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }

 private:
  std::uint64_t m_state;
};

}  // namespace

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  if (!(lo < hi)) throw usage_error("random_floats: lo must be below hi");
  splitmix64 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) {
    do x = lo + (hi - lo) * rng.unit_float();
    while (x == 0.0f || x >= hi);
  }
  return v;
}

std::vector<std::uint32_t> random_uints(std::size_t n, std::uint64_t seed, std::uint32_t lo,
                                        std::uint32_t hi) {
  if (hi < lo) throw usage_error("random_uints: lo must not be above hi");
  splitmix64 rng(seed);
  const std::uint64_t span = std::uint64_t{hi} - lo + 1;
  std::vector<std::uint32_t> v(n);
  // Multiply-shift maps 32 random bits onto the span; the bias (span / 2^32) is far below
  // anything a lab can notice.
  for (auto& x : v) x = lo + static_cast<std::uint32_t>(((rng.next() >> 32) * span) >> 32);
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
