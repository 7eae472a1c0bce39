// Lab 06's access model on the CPU: the closed forms of every kernel at sides that are multiples
// of 32, exact counts at odd and rectangular sides derived from the kernels' guards alone,
// the half-warp phases of the double tiles, the gcd law of the stride sweep, and the
// block-class shortcut against walking every block.
#include "transpose_model.hpp"

#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/model/access_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace {

namespace tm = cudalab::labs::transpose_model;
using std::uint64_t;
using tm::kernel;

// Sectors touched by `count` consecutive elements of `bytes` from element `first` of a 256-byte
// aligned buffer.
uint64_t sectors_of_run(uint64_t first, uint64_t count, uint64_t bytes = 4) {
  return ((first + count) * bytes - 1) / 32 - first * bytes / 32 + 1;
}

// A row-major matrix of `height` rows of `width` elements read or written a row of 32 at a
// time (a warp per 32 columns of a row): requests and sectors.
struct pass {
  uint64_t requests = 0, sectors = 0;
};
pass by_rows(uint64_t height, uint64_t width, uint64_t bytes = 4) {
  pass p;
  for (uint64_t r = 0; r < height; ++r)
    for (uint64_t c = 0; c < width; c += 32) {
      ++p.requests;
      p.sectors += sectors_of_run(r * width + c, std::min<uint64_t>(32, width - c), bytes);
    }
  return p;
}

// The four global counts of a prediction: load requests and sectors, store requests and sectors.
void expect_global_traffic(const cudalab::model::access_counts& c, uint64_t ld_requests,
                           uint64_t ld_sectors, uint64_t st_requests, uint64_t st_sectors) {
  EXPECT_EQ(c.global_ld_requests, ld_requests);
  EXPECT_EQ(c.global_ld_sectors, ld_sectors);
  EXPECT_EQ(c.global_st_requests, st_requests);
  EXPECT_EQ(c.global_st_sectors, st_sectors);
}

const kernel float_transposes[] = {kernel::shared_tile, kernel::padded, kernel::swizzled,
                                   kernel::tile_rows, kernel::tile64_rows};

TEST(transpose_model, copy_closed_form_four_sectors_a_request) {
  const uint64_t n = 1024;
  const auto c = tm::predict(kernel::copy, n, n);
  expect_global_traffic(c, n * n / 32, n * n / 8, n * n / 32, n * n / 8);
  EXPECT_EQ(c.shared_ld_wavefronts + c.shared_st_wavefronts, 0u);
  // __restrict__ reorders the instructions, not the accesses.
  EXPECT_EQ(tm::predict(kernel::copy_restrict, n, n), c);
  EXPECT_EQ(tm::predict(kernel::copy_restrict, 1001, 77), tm::predict(kernel::copy, 1001, 77));
}

TEST(transpose_model, naive_transposes_put_32_sectors_on_their_strided_side) {
  const uint64_t n = 1024;
  const auto row = tm::predict(kernel::naive_row_read, n, n);
  // The stores: one sector a lane.
  expect_global_traffic(row, n * n / 32, n * n / 8, n * n / 32, n * n);
  const auto col = tm::predict(kernel::naive_col_read, n, n);
  expect_global_traffic(col, n * n / 32, n * n, n * n / 32, n * n / 8);
}

TEST(transpose_model, tiles_are_coalesced_both_ways) {
  const uint64_t n = 1024;
  const auto copy = tm::predict(kernel::copy, n, n);
  for (kernel k : float_transposes) {
    SCOPED_TRACE(static_cast<int>(k));
    const auto c = tm::predict(k, n, n);
    // One row store and one column read a warp a row of the tile.
    expect_global_traffic(c, copy.global_ld_requests, copy.global_ld_sectors,
                          copy.global_st_requests, copy.global_st_sectors);
    EXPECT_EQ(c.shared_st_instructions, n * n / 32);
    EXPECT_EQ(c.shared_ld_instructions, n * n / 32);
    EXPECT_EQ(c.shared_st_wavefronts, n * n / 32);
    EXPECT_EQ(c.shared_st_conflicts, 0u);
  }
}

// tile64_vec4 at n = 1024: a warp's load is 2 rows of 256 bytes and its store 4 rows of 128 bytes,
// 16 whole sectors each (the ideal bytes in a quarter of the 4-byte kernels' requests); its
// STS.128 take the 4 wavefronts of 512 bytes and its 4-byte column reads one each, no conflict. At
// a side that is not a multiple of 4 it runs tile64_rows's kernel and counts.
TEST(transpose_model, tile64_vec4_moves_whole_sectors_in_16_byte_chunks) {
  const uint64_t n = 1024, chunks_a_warp = 32, requests = n * n / 4 / chunks_a_warp;
  const auto c = tm::predict(kernel::tile64_vec4, n, n);
  const auto rows4 = tm::predict(kernel::tile64_rows, n, n);
  EXPECT_EQ(c.global_ld_requests, requests);
  EXPECT_EQ(c.global_st_requests, requests);
  EXPECT_EQ(c.global_ld_sectors, 16 * requests);
  EXPECT_EQ(c.global_st_sectors, 16 * requests);
  EXPECT_EQ(c.global_ld_sectors, rows4.global_ld_sectors);
  EXPECT_EQ(4 * c.global_ld_requests, rows4.global_ld_requests);
  EXPECT_EQ(c.shared_st_wavefronts, 4 * requests);
  EXPECT_EQ(c.shared_ld_wavefronts, 4 * requests);
  EXPECT_EQ(c.shared_st_conflicts + c.shared_ld_conflicts, 0u);
  for (const auto& [rows, cols] :
       {std::pair<uint64_t, uint64_t>{1001, 1001}, {1000, 1001}, {1001, 1000}})
    EXPECT_EQ(tm::predict(kernel::tile64_vec4, rows, cols),
              tm::predict(kernel::tile64_rows, rows, cols));
  EXPECT_FALSE(tm::predict(kernel::tile64_vec4, 1000, 1004) ==
               tm::predict(kernel::tile64_rows, 1000, 1004));
  // The order of the blocks changes no count.
  for (const auto& [rows, cols] : {std::pair<uint64_t, uint64_t>{1024, 1024}, {1000, 1004}})
    EXPECT_EQ(tm::predict(kernel::tile64_vec4_row_order, rows, cols),
              tm::predict(kernel::tile64_vec4, rows, cols));
}

TEST(transpose_model, plain_tile_column_reads_are_32_way_padded_and_swizzled_none) {
  const uint64_t n = 1024, reads = n * n / 32;
  const auto plain = tm::predict(kernel::shared_tile, n, n);
  EXPECT_EQ(plain.shared_ld_wavefronts, 32 * reads);  // 1,048,576 at n = 1024
  EXPECT_EQ(plain.shared_ld_conflicts, 31 * reads);   // 1,015,808
  for (kernel k : {kernel::padded, kernel::swizzled, kernel::tile_rows, kernel::tile64_rows,
                   kernel::tile64_vec4, kernel::tile64_vec4_row_order}) {
    const auto c = tm::predict(k, n, n);
    EXPECT_EQ(c.shared_ld_wavefronts, reads) << static_cast<int>(k);
    EXPECT_EQ(c.shared_ld_conflicts, 0u) << static_cast<int>(k);
  }
}

// 8-byte accesses are served in two half-warp phases (docs/access_model.md): a conflict-free
// warp access costs 2 wavefronts. A plain tile's column is 16 distinct doubles in one bank pair
// a phase; the padded tile's 16 lanes cover the 32 banks once a phase.
TEST(transpose_model, double_tiles_are_served_in_half_warp_phases) {
  const uint64_t n = 1024, accesses = n * n / 32;
  const auto plain = tm::predict(kernel::shared_tile_double, n, n);
  EXPECT_EQ(plain.global_ld_requests, accesses);
  EXPECT_EQ(plain.global_ld_sectors, 8 * accesses);  // 32 doubles: 256 bytes
  EXPECT_EQ(plain.global_st_sectors, 8 * accesses);
  EXPECT_EQ(plain.shared_st_wavefronts, 2 * accesses);
  EXPECT_EQ(plain.shared_st_conflicts, 0u);
  EXPECT_EQ(plain.shared_ld_wavefronts, 32 * accesses);
  EXPECT_EQ(plain.shared_ld_conflicts, 30 * accesses);
  const auto padded = tm::predict(kernel::padded_double, n, n);
  EXPECT_EQ(padded.shared_ld_wavefronts, 2 * accesses);
  EXPECT_EQ(padded.shared_ld_conflicts, 0u);
  EXPECT_EQ(padded.shared_st_wavefronts, 2 * accesses);
}

TEST(transpose_model, stride_sweep_conflicts_are_gcd_of_stride_and_32) {
  const uint64_t n = 1024, accesses = n * n / 32;
  const auto copy = tm::predict(kernel::copy, n, n);
  for (unsigned s = 1; s <= 32; ++s) {
    SCOPED_TRACE(testing::Message() << "stride " << s);
    const auto c = tm::predict(kernel::shared_stride, n, n, s);
    const uint64_t ways = std::gcd(s, 32u);
    EXPECT_EQ(c.shared_st_wavefronts, ways * accesses);
    EXPECT_EQ(c.shared_ld_wavefronts, ways * accesses);
    EXPECT_EQ(c.shared_st_conflicts, (ways - 1) * accesses);
    EXPECT_EQ(c.shared_ld_conflicts, (ways - 1) * accesses);
    EXPECT_EQ(c.global_ld_sectors, copy.global_ld_sectors);
    EXPECT_EQ(c.global_st_sectors, copy.global_st_sectors);
  }
}

// Odd and rectangular sides: counted here from the kernels' guards, independently of the
// model's walk. Rows of 1001 floats start off 32-byte boundaries, so some warps straddle 5
// sectors; the last block column and row are partial.
TEST(transpose_model, odd_sides_equal_the_count_of_the_guards) {
  const std::pair<uint64_t, uint64_t> sides[] = {{1001, 1001}, {77, 1003}, {1003, 45}, {33, 31}};
  for (const auto& [rows, cols] : sides) {
    SCOPED_TRACE(testing::Message() << rows << " x " << cols);
    const pass input = by_rows(rows, cols), output = by_rows(cols, rows);
    const uint64_t elements = rows * cols;
    for (kernel k : {kernel::copy, kernel::shared_stride}) {
      const auto c = tm::predict(k, rows, cols, 3);
      expect_global_traffic(c, input.requests, input.sectors, input.requests, input.sectors);
    }
    // The strided side: lanes `rows` (or `cols`) floats apart, one sector each when that is at
    // least 8 floats.
    const auto row = tm::predict(kernel::naive_row_read, rows, cols);
    EXPECT_EQ(row.global_ld_sectors, input.sectors);
    EXPECT_EQ(row.global_st_requests, input.requests);
    if (rows >= 8) {
      EXPECT_EQ(row.global_st_sectors, elements);
    }
    const auto col = tm::predict(kernel::naive_col_read, rows, cols);
    EXPECT_EQ(col.global_ld_requests, output.requests);
    if (cols >= 8) {
      EXPECT_EQ(col.global_ld_sectors, elements);
    }
    EXPECT_EQ(col.global_st_sectors, output.sectors);
    for (kernel k : float_transposes) {
      const auto c = tm::predict(k, rows, cols);
      SCOPED_TRACE(static_cast<int>(k));
      expect_global_traffic(c, input.requests, input.sectors, output.requests, output.sectors);
      EXPECT_EQ(c.shared_st_instructions, input.requests) << static_cast<int>(k);
      EXPECT_EQ(c.shared_ld_instructions, output.requests) << static_cast<int>(k);
    }
    // Plain tile: a column read serves each of its active lanes alone, so the read wavefronts
    // are the elements; the padded tile needs one a read.
    const auto plain = tm::predict(kernel::shared_tile, rows, cols);
    EXPECT_EQ(plain.shared_ld_wavefronts, elements);
    EXPECT_EQ(plain.shared_ld_conflicts, elements - output.requests);
    const auto padded = tm::predict(kernel::padded, rows, cols);
    EXPECT_EQ(padded.shared_ld_wavefronts, output.requests);
    EXPECT_EQ(padded.shared_ld_conflicts + padded.shared_st_conflicts, 0u);
    const auto doubles = tm::predict(kernel::padded_double, rows, cols);
    const pass input8 = by_rows(rows, cols, 8), output8 = by_rows(cols, rows, 8);
    EXPECT_EQ(doubles.global_ld_sectors, input8.sectors);
    EXPECT_EQ(doubles.global_st_sectors, output8.sectors);
    EXPECT_EQ(doubles.shared_ld_conflicts + doubles.shared_st_conflicts, 0u);
  }
}

TEST(transpose_model, block_classes_equal_walking_every_block) {
  const std::pair<uint64_t, uint64_t> sides[] = {{1, 1},   {37, 70},  {70, 37},
                                                 {64, 96}, {33, 101}, {100, 132}};
  const kernel all[] = {kernel::copy,
                        kernel::copy_restrict,
                        kernel::naive_row_read,
                        kernel::naive_col_read,
                        kernel::shared_tile,
                        kernel::padded,
                        kernel::swizzled,
                        kernel::tile_rows,
                        kernel::tile64_rows,
                        kernel::tile64_vec4,
                        kernel::tile64_vec4_row_order,
                        kernel::shared_tile_double,
                        kernel::padded_double};
  for (const auto& [rows, cols] : sides) {
    for (kernel k : all) {
      SCOPED_TRACE(testing::Message() << static_cast<int>(k) << " " << rows << " x " << cols);
      EXPECT_EQ(tm::predict(k, rows, cols), tm::predict(k, rows, cols, 0, tm::walk::every_block));
    }
    for (unsigned s : {1u, 2u, 6u, 31u, 32u})
      EXPECT_EQ(tm::predict(kernel::shared_stride, rows, cols, s),
                tm::predict(kernel::shared_stride, rows, cols, s, tm::walk::every_block))
          << rows << " x " << cols << " stride " << s;
  }
}

TEST(transpose_model, prediction_cost_bounds_the_warps_walked_and_stays_small) {
  for (uint64_t n :
       {uint64_t{1}, uint64_t{1001}, uint64_t{8192}, uint64_t{cudalab::transpose::max_side}}) {
    for (kernel k : {kernel::copy, kernel::naive_col_read, kernel::shared_tile, kernel::tile_rows,
                     kernel::tile64_rows, kernel::padded_double}) {
      const uint64_t before = cudalab::model::warp_accesses_built_on_this_thread();
      tm::predict(k, n, n);
      const double built =
          static_cast<double>(cudalab::model::warp_accesses_built_on_this_thread() - before);
      EXPECT_LE(built, tm::prediction_cost(k, n, n)) << n;
      EXPECT_LT(tm::prediction_cost(k, n, n), 2e4) << n;
    }
  }
}

TEST(transpose_model, sides_and_strides_the_kernels_reject_are_refused) {
  EXPECT_THROW(tm::predict(kernel::copy, 0, 10), cudalab::usage_error);
  EXPECT_THROW(tm::predict(kernel::padded, 10, cudalab::transpose::max_side + 1),
               cudalab::usage_error);
  EXPECT_THROW(tm::predict(kernel::shared_stride, 64, 64, 0), cudalab::usage_error);
  EXPECT_THROW(tm::predict(kernel::shared_stride, 64, 64, 33), cudalab::usage_error);
  EXPECT_NO_THROW(tm::predict(kernel::padded, 8192, 8192));
}

}  // namespace
