// Lab 05 on the GPU: every variant verifies at sizes that are not multiples of the block
// (and tiny ones), with every block size 32..1024; every kernel sums integers exactly.
#include "reduction_data.hpp"
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/one_lab_registry.hpp"

#include "gpu_test.hpp"

#include <random>

namespace cudalab::labs {
lab make_lab_05_reduction();
}

// This test binary registers lab 05 alone, built against the exercise.cu or solution.cu it
// links (lab::find and the runner live beside find_lab, which asks for the registry).
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_05_reduction)

namespace {

namespace data = cudalab::labs::reduction_data;
namespace red = cudalab::reduction;
using cudalab::launch_config;

class reduction_gpu : public cudalab::testing::gpu_test {};

std::vector<std::size_t> test_sizes() {
  std::vector<std::size_t> sizes{1, 3, 31, 33, 1000, 4097, 65537, 1000003};
  std::mt19937 rng(5);  // fixed seed: the same "random" sizes every run
  std::uniform_int_distribution<std::size_t> pick(2, std::size_t{1} << 21);
  for (int i = 0; i < 3; ++i) sizes.push_back(pick(rng) | 1);  // odd
  return sizes;
}

TEST_F(reduction_gpu, every_variant_verifies_at_odd_sizes_and_every_block_size) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  cudalab::cuda_stream stream;
  for (const auto& v : l.variants) {
    const bool any_block = v.name != "cub" && v.name != "cpu_reference";
    for (std::size_t n : test_sizes())
      for (int block : {32, 64, 128, 256, 512, 1024}) {
        if (!any_block && block != 256) continue;
        SCOPED_TRACE(testing::Message() << v.name << " n=" << n << " block=" << block);
        auto p = v.prepare(launch_config{n, block, 0}, stream.get());
        p->upload(stream.get());
        for (int run = 0; run < 2; ++run) {  // twice: reset must re-arm the outputs
          p->reset(stream.get());
          p->launch(stream.get());
        }
        p->download(stream.get());
        const cudalab::verify_result r = p->verify();
        EXPECT_TRUE(r.ok) << r.detail;
      }
  }
}

template <typename Launch>
void expect_exact_partials(Launch launch, std::size_t n, unsigned block, std::size_t per_block,
                           cudaStream_t stream) {
  const std::vector<int> in = data::make_ints(n, 0x15);
  cudalab::device_buffer<int> d_in(n), d_partial((n + per_block - 1) / per_block), d_out(1);
  d_in.copy_from_host(in, stream);
  d_partial.fill_bytes(0xFF, stream);
  launch(d_in.data(), d_partial.data(), n, block, stream);
  std::vector<int> partial;
  d_partial.copy_to_host(partial, stream);
  const auto r = data::verify_partials(in, partial, per_block);
  EXPECT_TRUE(r.ok) << r.detail;
  // The second pass over these partials must give the exact total too.
  d_out.fill_bytes(0xFF, stream);
  red::launch_finish(d_partial.data(), d_out.data(), partial.size(), stream);
  std::vector<int> out;
  d_out.copy_to_host(out, stream);
  EXPECT_EQ(out[0], data::reference_sum(in));
}

// Integers make every lost, doubled or misplaced element visible, whatever the size.
TEST_F(reduction_gpu, every_kernel_sums_integers_exactly) {
  cudalab::cuda_stream stream;
  for (std::size_t n : test_sizes())
    for (unsigned block : {32u, 64u, 128u, 256u, 512u, 1024u}) {
      SCOPED_TRACE(testing::Message() << "n=" << n << " block=" << block);
      const cudaStream_t s = stream.get();
      expect_exact_partials(red::launch_interleaved_divergent<int>, n, block, block, s);
      expect_exact_partials(red::launch_interleaved_strided<int>, n, block, block, s);
      expect_exact_partials(red::launch_sequential<int>, n, block, block, s);
      expect_exact_partials(red::launch_first_add<int>, n, block, 2 * block, s);
      expect_exact_partials(red::launch_warp_shuffle<int>, n, block, 2 * block, s);

      const std::vector<int> in = data::make_ints(n, 0x25);
      cudalab::device_buffer<int> d_in(n), d_out(1);
      d_in.copy_from_host(in, s);
      d_out.fill_bytes(0, s);
      red::launch_grid_stride(d_in.data(), d_out.data(), n, block, s);
      std::vector<int> out;
      d_out.copy_to_host(out, s);
      EXPECT_EQ(out[0], data::reference_sum(in));
    }
}

// The largest size the lab accepts: indices stay 32-bit, the integer sum below 2^31.
TEST_F(reduction_gpu, grid_stride_int_is_exact_at_the_largest_size) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  const cudalab::variant* v = l.find("grid_stride_int");
  ASSERT_NE(v, nullptr);
  cudalab::cuda_stream stream;
  auto p = v->prepare(launch_config{red::max_elements - 1, 256, 0}, stream.get());
  p->upload(stream.get());
  p->reset(stream.get());
  p->launch(stream.get());
  p->download(stream.get());
  const auto r = p->verify();
  EXPECT_TRUE(r.ok) << r.detail;
}

}  // namespace
