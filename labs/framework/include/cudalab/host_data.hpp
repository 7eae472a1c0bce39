// Host-side data for variants: deterministic pseudo-random inputs (never zeros, which hide
// unwritten outputs and wrong indexing), float comparison against a double reference with a
// stated tolerance, and canary bands that make out-of-bounds writes visible without a sanitizer.
#pragma once

#include "cudalab/lab.hpp"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cudalab {

// One step of splitmix64 (Steele, Lea and Flood 2014): add the golden gamma, then three
// multiply-xorshift rounds. Counter-based: value k of a stream is splitmix64(seed + k * gamma),
// a function of k alone, so element i of an input never depends on element i - 1.
inline constexpr std::uint64_t splitmix64_gamma = 0x9e3779b97f4a7c15ull;
inline std::uint64_t splitmix64(std::uint64_t x) {
  x += splitmix64_gamma;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Which inputs the variants prepared now get. Variation 0, the default, gives every size the
// same inputs run after run. The grader prepares the launches it counts and the one it
// inventories under other variations, so that no launch can pass off an answer it computed for
// the inputs of an earlier one: every input generator mixes the variation into its seed, and a
// variant's CPU reference follows its inputs. Hold the scope over prepare, the launches,
// download and verify alike.
std::uint64_t input_variation();

// Sets one of this file's process-wide settings for the scope's life and puts the previous value
// back when it ends (one grade at a time in a process, as `check` and the tests run them).
template <class T>
class setting_scope {
 public:
  setting_scope(const setting_scope&) = delete;
  setting_scope& operator=(const setting_scope&) = delete;

 protected:
  setting_scope(std::atomic<T>& setting, T value)
      : m_setting(setting), m_previous(setting.exchange(value)) {}
  ~setting_scope() { m_setting.store(m_previous); }

 private:
  std::atomic<T>& m_setting;
  T m_previous;
};

class input_variation_scope : public setting_scope<std::uint64_t> {
 public:
  explicit input_variation_scope(std::uint64_t variation);
};
// A variation no earlier call in this process returned (never 0).
std::uint64_t fresh_input_variation();
// `seed` under the current variation: `seed` itself under variation 0.
std::uint64_t varied_seed(std::uint64_t seed);

// Uniform in [lo, hi), from `seed` (varied_seed): the same inputs for the same size, run after
// run.
std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo = 0.5f,
                                 float hi = 1.5f);
std::vector<std::uint32_t> random_uints(std::size_t n, std::uint64_t seed, std::uint32_t lo,
                                        std::uint32_t hi);

// |got - expected| <= abs_tol + rel_tol * |expected| for every element; NaN never passes.
// `detail` reports the worst element, the tolerance, and how many elements failed.
verify_result compare_floats(const float* got, const double* expected, std::size_t n,
                             double rel_tol, double abs_tol = 0);

// A band of `count` words after the output, filled with canary_word before each launch.
inline constexpr std::uint32_t canary_word = 0xCA11AB1Eu;
// How many words of the band no longer hold canary_word ("" when intact).
std::size_t count_overwritten(const std::uint32_t* band, std::size_t count);

// The words of canary band a variant whose outputs are exact-size (lab 07, where memcheck must
// see a write past the end) keeps after them now: 0, the default, keeps none. The grader's
// runs in its own process (never the ones under compute-sanitizer) hold a band, so that a write
// past the output that lands in an allocation's slack shows without the sanitizer too.
std::size_t output_canary_words();
class output_canary_scope : public setting_scope<std::size_t> {
 public:
  explicit output_canary_scope(std::size_t words);
};

}  // namespace cudalab
