// The labs' GPU tests of their variants: a fixture with one stream a test, and a prepared
// variant run as the runner runs it, twice, then checked against its CPU reference. Include
// only from test sources (it needs GoogleTest and the gpu_test fixture).
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"

#include "gpu_test.hpp"

#include <memory>

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
