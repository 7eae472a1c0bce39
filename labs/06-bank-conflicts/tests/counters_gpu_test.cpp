// Lab 06 counters against the model, on the release build (-G changes the counts).
//
//  - Global load and store requests and sectors are deterministic: equal to the model for every
//    variant at 77 x 1003, 1003 x 45 and 1001 x 1001 (odd sides: rows start off sector
//    boundaries, and tile64_vec4 runs tile64_rows's kernel), at 1024 x 1024 (a multiple of every
//    tile: no edge block), and at 1000 x 1004, 200 x 452 and 452 x 200 (multiples of 4 and of no
//    tile: tile64_vec4's 16-byte chunks with edge guards; the last two with grids of tiles that
//    are not square).
//  - Shared wavefronts and bank conflicts, read per instruction by the SASS-level counters
//    (docs/counters.md), equal the model too: the plain tile's 31 conflicts a column read, the
//    doubles' half-warp phases and the stride sweep's gcd(stride, 32) ways: the tiles at 1001,
//    8191 (where the data stage's own count runs a quarter above them) and 1000 (tile64_vec4's
//    chunks), the sweep at 1001.
//  - DRAM bytes are not deterministic (the L2 holds up to 50 MB of the output when the kernel
//    ends, and of the poison written before it): at 8192 x 8192, where the matrices are five
//    times the L2, the coalesced kernels move the ideal bytes within 20%.
#include "transpose_lab.hpp"
#include "transpose_model.hpp"
#include "transpose_variants.hpp"

#include "cudalab/counters.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/counted_launch.hpp"
#include "cudalab/testing/shared_counts.hpp"

#include "gpu_test.hpp"

#include <iostream>
#include <map>
#include <memory>
#include <string>

namespace {

using cudalab::labs::transpose_spec;

using namespace cudalab::testing::counted;  // the CUPTI names of the counts compared
const char* const dram_read = "dram__bytes_read.sum";
const char* const dram_write = "dram__bytes_write.sum";

class transpose_counters : public cudalab::testing::counted_launch_test {
 protected:
  std::vector<std::string> metrics() const override {
    return cudalab::resolve_metrics(
        "memory,shared_ld_wavefronts,shared_st_wavefronts,shared_ld_conflicts,shared_st_conflicts,"
        "dram_read_bytes,dram_write_bytes");
  }

  totals measure(const transpose_spec& spec, std::size_t rows, std::size_t cols, unsigned stride) {
    auto p = cudalab::labs::prepare_matrix(spec, rows, cols, stride);
    return measure_launch(*p);
  }
};

const transpose_spec& spec_named(const std::string& name) {
  for (const transpose_spec& spec : cudalab::labs::transpose_specs())
    if (spec.name == name) return spec;
  throw std::logic_error("no variant " + name);
}

TEST_F(transpose_counters, global_requests_and_sectors_equal_the_model_exactly) {
  const std::pair<std::size_t, std::size_t> sides[] = {
      {77, 1003}, {1003, 45}, {1001, 1001}, {1024, 1024}, {1000, 1004}, {200, 452}, {452, 200}};
  for (const auto& [rows, cols] : sides)
    for (const transpose_spec& spec : cudalab::labs::transpose_specs()) {
      const unsigned stride = 5;
      SCOPED_TRACE(testing::Message() << spec.name << " " << rows << " x " << cols);
      const auto model = cudalab::labs::transpose_model::predict(*spec.model, rows, cols, stride);
      auto m = measure(spec, rows, cols, stride);
      EXPECT_EQ(m[ld_requests], static_cast<double>(model.global_ld_requests));
      EXPECT_EQ(m[ld_sectors], static_cast<double>(model.global_ld_sectors));
      EXPECT_EQ(m[st_requests], static_cast<double>(model.global_st_requests));
      EXPECT_EQ(m[st_sectors], static_cast<double>(model.global_st_sectors));
    }
}

using cudalab::testing::expect_shared_counts_equal;

TEST_F(transpose_counters, shared_wavefronts_and_conflicts_equal_the_model) {
  // 1000: tile64_vec4's 16-byte chunks (its side a multiple of 4, not of 64: edge guards).
  for (const std::size_t n :
       {cudalab::labs::transpose_default_side, std::size_t{8191}, std::size_t{1000}})
    for (const char* name :
         {"shared_tile", "padded", "swizzled", "tile_rows", "tile64_rows", "tile64_vec4",
          "tile64_vec4_row_order", "shared_tile_double", "padded_double"}) {
      SCOPED_TRACE(testing::Message() << name << " n=" << n);
      const auto model = cudalab::labs::transpose_model::predict(*spec_named(name).model, n, n);
      auto m = measure(spec_named(name), n, n, 1);
      std::cout << name << ": lds wavefronts " << m[ld_wavefronts] << " (model "
                << model.shared_ld_wavefronts << "), conflicts " << m[ld_conflicts] << " (model "
                << model.shared_ld_conflicts << "); sts wavefronts " << m[st_wavefronts]
                << " (model " << model.shared_st_wavefronts << "), conflicts " << m[st_conflicts]
                << "\n";
      expect_shared_counts_equal(m, model);
    }
}

TEST_F(transpose_counters, the_stride_sweep_conflicts_gcd_of_stride_and_32_ways) {
  const std::size_t n = cudalab::labs::transpose_default_side;
  const transpose_spec& sweep = spec_named("shared_stride");
  for (unsigned s : {1u, 2u, 3u, 4u, 6u, 8u, 16u, 24u, 31u, 32u}) {
    SCOPED_TRACE(testing::Message() << "stride " << s);
    const auto model = cudalab::labs::transpose_model::predict(*sweep.model, n, n, s);
    auto m = measure(sweep, n, n, s);
    std::cout << "stride " << s << ": lds wavefronts " << m[ld_wavefronts] << " (model "
              << model.shared_ld_wavefronts << "), sts wavefronts " << m[st_wavefronts]
              << " (model " << model.shared_st_wavefronts << ")\n";
    expect_shared_counts_equal(m, model);
  }
}

TEST_F(transpose_counters, coalesced_kernels_move_the_ideal_dram_bytes_at_8192) {
  const std::size_t n = 8192;
  for (const char* name :
       {"copy", "padded", "tile_rows", "tile64_rows", "tile64_vec4", "tile64_vec4_row_order"}) {
    const transpose_spec& spec = spec_named(name);
    auto m = measure(spec, n, n, 1);
    const double ideal = cudalab::labs::transpose_ideal(n, n, spec.element_bytes()).bytes;
    const double ratio = (m[dram_read] + m[dram_write]) / ideal;
    std::cout << name << ": DRAM read " << m[dram_read] << " write " << m[dram_write] << " bytes, "
              << ratio << " x ideal\n";
    EXPECT_GT(ratio, 0.8) << name;
    EXPECT_LT(ratio, 1.2) << name;
  }
}

}  // namespace
