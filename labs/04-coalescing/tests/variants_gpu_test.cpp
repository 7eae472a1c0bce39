// Lab 04 on the GPU: every variant verifies against its CPU reference at random sizes (odd ones
// included, so the tail block is partial) and block sizes 32, 96, 256 and 1024; the in-place
// variants need their reset; bad launch shapes are refused with a clear error.
#include "coalescing_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/check.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/variant_runs.hpp"

#include <gtest/gtest.h>

namespace cudalab::labs {
namespace {

using testing::gpu_test;

class coalescing_gpu : public gpu_test {};

TEST_F(coalescing_gpu, every_variant_verifies_at_random_sizes_and_blocks) {
  const lab l = make_lab_04_coalescing();
  cuda_stream stream;
  // A whole 2^20 first, then odd sizes: a partial tail block (and, for the bytes, a partial
  // last word).
  const auto verify_every_variant = [&](std::size_t n, int block) {
    for (const auto& v : l.variants) {
      std::vector<long> params{0};
      if (v.sweep) params = {v.sweep->min, v.sweep->min + 1, 7, 8, 31, v.sweep->max};
      for (long p : params) {
        const launch_config c{n, block, p};
        const verify_result r = testing::run_once_and_verify(v, c, stream.get());
        EXPECT_TRUE(r.ok) << v.name << " n=" << n << " block=" << block << " param=" << p << ": "
                          << r.detail;
      }
    }
  };
  testing::for_random_sizes(404, 2'000'000, {32, 96, 256, 1024}, 3, std::size_t{1} << 20,
                            verify_every_variant);
}

TEST_F(coalescing_gpu, every_offset_and_stride_verifies) {
  const lab l = make_lab_04_coalescing();
  cuda_stream stream;
  const std::size_t n = 100'003;
  for (long k = 0; k <= max_offset; ++k) {
    const verify_result r =
        testing::run_once_and_verify(*l.find("offset"), {n, 256, k}, stream.get());
    EXPECT_TRUE(r.ok) << "offset " << k << ": " << r.detail;
  }
  for (long s = 1; s <= max_stride; ++s) {
    const verify_result r =
        testing::run_once_and_verify(*l.find("stride"), {n, 256, s}, stream.get());
    EXPECT_TRUE(r.ok) << "stride " << s << ": " << r.detail;
  }
}

TEST_F(coalescing_gpu, staged_kernel_handles_tiny_and_partial_blocks) {
  // Fewer numbers than threads, and sizes one either side of a block boundary.
  const lab l = make_lab_04_coalescing();
  cuda_stream stream;
  for (int block : {32, 96, 256, 1024})
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t(block - 1),
                          std::size_t(block), std::size_t(block + 1), std::size_t(7 * block + 5)}) {
      const verify_result r =
          testing::run_once_and_verify(*l.find("aos_float3_staged"), {n, block, 0}, stream.get());
      EXPECT_TRUE(r.ok) << "n=" << n << " block=" << block << ": " << r.detail;
    }
}

TEST_F(coalescing_gpu, in_place_variants_restore_their_input_on_reset) {
  // Every timed repeat must do the same work: reset() puts the pristine input back. Without
  // it, a second launch adds v twice and verification must notice.
  const lab l = make_lab_04_coalescing();
  cuda_stream stream;
  const launch_config c{10'001, 256, 0};
  for (const char* name : {"aos_float3", "aos_float3_staged", "aos_float4", "soa"}) {
    auto prepared = l.find(name)->prepare(c, stream.get());
    prepared->upload(stream.get());
    prepared->reset(stream.get());
    prepared->launch(stream.get());
    prepared->reset(stream.get());
    prepared->launch(stream.get());
    prepared->download(stream.get());
    EXPECT_TRUE(prepared->verify().ok) << name << ": reset did not restore the input";

    prepared->reset(stream.get());
    prepared->launch(stream.get());
    prepared->launch(stream.get());  // no reset in between: v added twice
    prepared->download(stream.get());
    const verify_result twice = prepared->verify();
    EXPECT_FALSE(twice.ok) << name << ": verify missed a doubled update";
  }
}

TEST_F(coalescing_gpu, unlaunched_output_fails_verification) {
  // The poison (0xFF bytes) must never pass for a result.
  const lab l = make_lab_04_coalescing();
  cuda_stream stream;
  for (const auto& v : l.variants) {
    const launch_config c{4099, 256, v.sweep ? v.sweep->max : 0};
    auto prepared = v.prepare(c, stream.get());
    prepared->upload(stream.get());
    prepared->reset(stream.get());
    prepared->download(stream.get());
    EXPECT_FALSE(prepared->verify().ok) << v.name;
  }
}

TEST_F(coalescing_gpu, bad_launch_shapes_are_refused) {
  const lab l = make_lab_04_coalescing();
  cuda_stream stream;
  for (int block : {0, 1025}) {
    auto prepared = l.find("aos_float3_staged")->prepare({1000, block, 0}, stream.get());
    prepared->upload(stream.get());
    EXPECT_THROW(prepared->launch(stream.get()), usage_error) << block;
  }
  EXPECT_THROW(l.find("stride")->prepare({1000, 256, 0}, stream.get()), usage_error);
  EXPECT_THROW(l.find("offset")->prepare({1000, 256, 33}, stream.get()), usage_error);
}

}  // namespace
}  // namespace cudalab::labs
