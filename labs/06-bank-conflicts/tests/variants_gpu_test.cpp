// Lab 06 on the GPU: every variant, the exercise included, is the exact transpose (or copy) at
// odd and rectangular sides, with nothing written past the result; the stride sweep at every
// stride; and the benchmark's side, 8192, runs.
#include "transpose_lab.hpp"
#include "transpose_variants.hpp"

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/variant_runs.hpp"

#include "gpu_test.hpp"

#include <memory>
#include <string>

// This test binary registers lab 06 alone, built against the exercise.cu it links.
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_06_bank_conflicts)

namespace {

using cudalab::verify_result;
using cudalab::labs::transpose_spec;

class transpose_gpu : public cudalab::testing::stream_test {
 protected:
  verify_result run(const transpose_spec& spec, std::size_t rows, std::size_t cols,
                    unsigned stride = 1) {
    auto p = cudalab::labs::prepare_matrix(spec, rows, cols, stride);
    return run_twice_and_verify(*p);
  }
};

// Square and rectangular, 1 to a few thousand: partial tiles in either axis or both. 200 x 452
// and 452 x 200 are multiples of 4 (tile64_vec4's 16-byte chunks) with grids of 8 x 4 and 4 x 8
// tiles, so taking the tiles down the columns must map a block to its tile in a grid that is
// not square.
const std::pair<std::size_t, std::size_t> sides[] = {{1, 1},     {7, 33},    {33, 7},
                                                     {77, 1003}, {1003, 45}, {1001, 1001},
                                                     {64, 96},   {200, 452}, {452, 200}};

TEST_F(transpose_gpu, every_variant_is_exact_at_odd_and_rectangular_sides) {
  for (const transpose_spec& spec : cudalab::labs::transpose_specs())
    for (const auto& [rows, cols] : sides) {
      const verify_result r = run(spec, rows, cols, 5);
      EXPECT_TRUE(r.ok) << spec.name << " " << rows << " x " << cols << ": " << r.detail;
    }
}

TEST_F(transpose_gpu, the_exercise_is_exact_at_odd_and_rectangular_sides) {
  for (const auto& [rows, cols] : sides) {
    const verify_result r = run(cudalab::labs::transpose_exercise_spec(), rows, cols);
    EXPECT_TRUE(r.ok) << rows << " x " << cols << ": " << r.detail;
  }
}

TEST_F(transpose_gpu, the_stride_sweep_copies_at_every_stride) {
  const transpose_spec* sweep = nullptr;
  for (const transpose_spec& spec : cudalab::labs::transpose_specs())
    if (spec.stride_launch) sweep = &spec;
  ASSERT_NE(sweep, nullptr);
  for (unsigned s = 1; s <= 32; ++s) {
    const verify_result r = run(*sweep, 77, 1003, s);
    EXPECT_TRUE(r.ok) << "stride " << s << ": " << r.detail;
  }
}

// The benchmark's size through the lab's own variants (square, n from the launch config).
TEST_F(transpose_gpu, the_benchmark_side_runs_through_the_lab) {
  const cudalab::lab l = cudalab::labs::make_lab_06_bank_conflicts();
  for (const char* name : {"copy", "tile_rows", "tile64_rows", "tile64_vec4",
                           "tile64_vec4_row_order", "padded_double"}) {
    auto p = l.find(name)->prepare(cudalab::launch_config{8192, 256, 0}, m_stream->get());
    p->upload(m_stream->get());
    p->reset(m_stream->get());
    p->launch(m_stream->get());
    p->download(m_stream->get());
    const verify_result r = p->verify();
    EXPECT_TRUE(r.ok) << name << ": " << r.detail;
  }
}

}  // namespace
