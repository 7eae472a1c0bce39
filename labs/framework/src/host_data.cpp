#include "cudalab/host_data.hpp"

#include "cudalab/check.hpp"
#include "cudalab/parallel_chunks.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <thread>
#include <vector>

namespace cudalab {

namespace {

// splitmix64 (Steele, Lea and Flood 2014): one add and three multiply-xorshift rounds per
// value. Chosen over std::mt19937_64 with std::uniform_*_distribution for two reasons: the
// standard distributions are implementation-defined, so the same seed gave different inputs
// under libstdc++ and libc++; and filling lab 04's 71 inputs at 1M elements took 1.8 s with
// them, longer than the GPU work.
// Value k of the stream is a function of k alone (splitmix64's state after k steps is
// seed + k * gamma), so any range of the stream can be made on its own thread and the inputs
// are the same whatever the number of cores.
std::uint64_t value_at(std::uint64_t seed, std::uint64_t k) {
  return splitmix64(seed + k * splitmix64_gamma);
}
// Uniform in [0, 1) on the 2^24 floats of that spacing.
float unit_float(std::uint64_t bits) {
  return static_cast<float>(bits >> 40) * (1.0f / 16777216.0f);
}

std::atomic<std::uint64_t> current_variation{0};
std::atomic<std::uint64_t> variations_given{0};
std::atomic<std::size_t> canary_words{0};

}  // namespace

std::uint64_t input_variation() { return current_variation.load(); }

input_variation_scope::input_variation_scope(std::uint64_t variation)
    : setting_scope(current_variation, variation) {}

std::size_t output_canary_words() { return canary_words.load(); }

output_canary_scope::output_canary_scope(std::size_t words) : setting_scope(canary_words, words) {}

std::uint64_t fresh_input_variation() { return ++variations_given; }

std::uint64_t varied_seed(std::uint64_t seed) {
  const std::uint64_t v = input_variation();
  return v == 0 ? seed : seed ^ splitmix64(v ^ 0x5eed'0000'0000'0000ull);
}

std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo, float hi) {
  if (!(lo < hi)) throw usage_error("random_floats: lo must be below hi");
  seed = varied_seed(seed);
  std::vector<float> v(n);
  parallel_chunks(n, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) {
      // Rounding can land on hi (or on 0 for a range around it): draw again from a stream of
      // the element's own, so every element stays a function of (seed, i).
      std::uint64_t bits = value_at(seed, i);
      float x = lo + (hi - lo) * unit_float(bits);
      while (x == 0.0f || x >= hi) {
        bits = splitmix64(bits);
        x = lo + (hi - lo) * unit_float(bits);
      }
      v[i] = x;
    }
  });
  return v;
}

std::vector<std::uint32_t> random_uints(std::size_t n, std::uint64_t seed, std::uint32_t lo,
                                        std::uint32_t hi) {
  seed = varied_seed(seed);
  if (hi < lo) throw usage_error("random_uints: lo must not be above hi");
  const std::uint64_t span = std::uint64_t{hi} - lo + 1;
  std::vector<std::uint32_t> v(n);
  // Multiply-shift maps 32 random bits onto the span; the bias (span / 2^32) is far below
  // anything a lab can notice.
  parallel_chunks(n, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i)
      v[i] = lo + static_cast<std::uint32_t>(((value_at(seed, i) >> 32) * span) >> 32);
  });
  return v;
}

verify_result compare_floats(const float* got, const double* expected, std::size_t n,
                             double rel_tol, double abs_tol) {
  // Each chunk finds its failures and its worst element; the chunks are then merged in order,
  // so the report names the same element whatever the number of threads.
  struct finding {
    std::size_t bad = 0, worst = 0;
    double worst_excess = -1, worst_err = 0;
  };
  std::vector<finding> found(std::max(1u, std::thread::hardware_concurrency()));
  parallel_chunks(n, [&](std::size_t begin, std::size_t end, std::size_t c) {
    finding f;
    for (std::size_t i = begin; i < end; ++i) {
      const double err = std::fabs(static_cast<double>(got[i]) - expected[i]);
      const double allowed = abs_tol + rel_tol * std::fabs(expected[i]);
      const bool ok = err <= allowed;  // false for NaN
      if (!ok) ++f.bad;
      const double excess = std::isnan(err) ? INFINITY : err - allowed;
      if (excess > f.worst_excess) {
        f.worst_excess = excess;
        f.worst = i;
        f.worst_err = err;
      }
    }
    found[c] = f;
  });
  finding all;
  for (const finding& f : found) {
    all.bad += f.bad;
    if (f.worst_excess > all.worst_excess) {
      all.worst_excess = f.worst_excess;
      all.worst = f.worst;
      all.worst_err = f.worst_err;
    }
  }
  char buf[256];
  if (n == 0) return {true, "nothing to compare"};
  if (all.bad == 0) {
    std::snprintf(buf, sizeof buf, "max err %.2g <= %.1g rel", all.worst_err, rel_tol);
    return {true, buf};
  }
  std::snprintf(buf, sizeof buf, "%zu of %zu wrong; [%zu] = %.9g, expected %.9g (tol %.1g rel)",
                all.bad, n, all.worst, static_cast<double>(got[all.worst]), expected[all.worst],
                rel_tol);
  return {false, buf};
}

std::size_t count_overwritten(const std::uint32_t* band, std::size_t count) {
  std::size_t changed = 0;
  for (std::size_t i = 0; i < count; ++i) changed += band[i] != canary_word;
  return changed;
}

}  // namespace cudalab
