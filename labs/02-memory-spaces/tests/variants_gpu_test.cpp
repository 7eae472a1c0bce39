// Lab 02 on the GPU: every variant, the copies, pipelines, timers and the exercise included,
// produces the reference at sizes that are multiples of no block and of the pipeline's chunks,
// twice in a row (reset must re-poison the output).
#include "memory_lab.hpp"

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/variant_runs.hpp"

#include "gpu_test.hpp"

#include <memory>
#include <string>

// This test binary registers lab 02 alone, built against the exercise.cu it links.
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_02_memory_spaces)

namespace {

class memory_gpu : public cudalab::testing::stream_test {
 protected:
  cudalab::verify_result run(const cudalab::variant& v, std::size_t n, int block) {
    const cudalab::launch_config c{n, block, 0};
    auto p = v.prepare(c, m_stream->get());
    return run_twice_and_verify(*p);
  }
};

TEST_F(memory_gpu, every_variant_matches_its_reference_at_odd_sizes) {
  const cudalab::lab l = cudalab::labs::make_lab_02_memory_spaces();
  for (const auto& v : l.variants)
    for (const std::size_t n : {1ul, 31ul, 1000ul, 100003ul, (1ul << 20) + 7})
      for (const int block : {v.default_block, 96}) {
        const cudalab::verify_result r = run(v, n, block);
        EXPECT_TRUE(r.ok) << v.name << " n " << n << " block " << block << ": " << r.detail;
      }
}

TEST_F(memory_gpu, the_default_size_runs_every_variant) {
  const cudalab::lab l = cudalab::labs::make_lab_02_memory_spaces();
  for (const auto& v : l.variants) {
    const cudalab::verify_result r = run(v, l.default_size, v.default_block);
    EXPECT_TRUE(r.ok) << v.name << ": " << r.detail;
  }
}

}  // namespace
