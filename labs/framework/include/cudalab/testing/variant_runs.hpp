// The labs' GPU tests of their variants: a fixture with one stream a test, and a prepared
// variant run as the runner runs it, twice, then checked against its CPU reference. Include
// only from test sources (it needs GoogleTest and the gpu_test fixture).
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"

#include "gpu_test.hpp"

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <optional>
#include <random>

namespace cudalab::testing {

// Prepares `v` for `c`, runs it once (upload, reset, launch, download) and verifies.
inline verify_result run_once_and_verify(const variant& v, const launch_config& c,
                                         cudaStream_t stream) {
  auto prepared = v.prepare(c, stream);
  prepared->upload(stream);
  prepared->reset(stream);
  prepared->launch(stream);
  prepared->download(stream);
  return prepared->verify();
}

// The launches of a sweep at random sizes: at each block size of `blocks`, `trials` sizes drawn
// from [1, max_size] with the generator seeded `seed` (the same sizes every run), each made odd
// so the tail block is partial; `first`, where given, is each block size's first size instead
// of a draw. Calls fn(n, block).
template <class Fn>
void for_random_sizes(unsigned seed, std::size_t max_size, std::initializer_list<int> blocks,
                      int trials, std::optional<std::size_t> first, Fn&& fn) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<std::size_t> size(1, max_size);
  for (int block : blocks)
    for (int trial = 0; trial < trials; ++trial)
      fn(trial == 0 && first ? *first : size(rng) | 1, block);
}

// Uploads, then resets and launches twice (the second run shows that reset re-poisons the
// output), downloads and verifies.
inline verify_result run_twice_and_verify(prepared_variant& p, const cuda_stream& stream) {
  p.upload(stream.get());
  stream.synchronize();
  for (int run = 0; run < 2; ++run) {
    p.reset(stream.get());
    p.launch(stream.get());
  }
  p.download(stream.get());
  return p.verify();
}

// A gpu_test with a stream, made once the device is known to be there.
class stream_test : public gpu_test {
 protected:
  void SetUp() override {
    gpu_test::SetUp();
    if (IsSkipped()) return;
    m_stream = std::make_unique<cuda_stream>();
  }
  verify_result run_twice_and_verify(prepared_variant& p) {
    return testing::run_twice_and_verify(p, *m_stream);
  }
  std::unique_ptr<cuda_stream> m_stream;
};

}  // namespace cudalab::testing
