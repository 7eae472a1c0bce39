// Lab 08's access model on the CPU: the block-class shortcut against a walk of every block and
// step, the shared loads against the counts derived from each tiling, and the load paths.
#include "regtile_lab.hpp"
#include "regtile_model.hpp"

#include "matmul/register_tiling_kernels.cuh"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace rm = cudalab::labs::regtile_model;
namespace mm = cudalab::matmul;
using rm::kernel;

struct point {
  kernel k;
  unsigned config;
};
// Every kernel, the warp-tiled ones in every configuration.
std::vector<point> every_kernel_of() {
  std::vector<point> points = {{kernel::pad_product, 0},
                               {kernel::pad_with_copies, 0},
                               {kernel::coarse_1d, 0},
                               {kernel::register_2d, 0},
                               {kernel::vectorized, 0}};
  for (unsigned config = 0; config < mm::warp_tiled_configs; ++config) {
    points.push_back({kernel::warp_tiled, config});
    points.push_back({kernel::cp_async_pipeline, config});
  }
  return points;
}
const std::vector<point> every_kernel = every_kernel_of();

TEST(regtile_model, block_classes_equal_walking_every_block_at_odd_and_aligned_sides) {
  for (const point& p : every_kernel)
    for (std::size_t n : {std::size_t{77}, std::size_t{132}, std::size_t{261}}) {
      const auto fast = rm::predict(p.k, n, p.config, rm::walk::block_classes);
      const auto slow = rm::predict(p.k, n, p.config, rm::walk::every_block);
      EXPECT_EQ(fast, slow) << static_cast<int>(p.k) << " config " << p.config << " n " << n;
    }
}

// The LDS a warp issues per step, from the tiling: 16-byte reads wherever a thread's words are
// consecutive and aligned (the SASS the README shows), 4-byte ones otherwise.
std::uint64_t derived_loads_per_step(kernel k, unsigned config) {
  const mm::block_tiling& t = rm::tiling_of(k, config);
  switch (k) {
    case kernel::coarse_1d:  // a row's BK words in BK/4 LDS.128, one B word a column
      return t.tm * t.bk / 4 + t.bk;
    case kernel::register_2d:  // the same for A, TN/4 LDS.128 of B a column
      return t.tm * t.bk / 4 + t.bk * t.tn / 4;
    case kernel::vectorized:  // both from 16-byte reads, every column
      return t.bk * (t.tm / 4 + t.tn / 4);
    default:
      return t.bk * (t.wm_iter() * t.tm / 4 + t.wn_iter * t.tn / 4);
  }
}

// cp_async_pipeline's B copies (LDGSTS) with an active lane, counted from the tiling: lane l of
// warp w copies slot i of the step's B tile (thread_slot, slot_row, slot_col), one 16-byte copy
// a slot when n % 8 == 0, else four 4-byte ones, the q-th at +4q bytes; a warp's copy has an
// active lane when one of its lanes' floats is inside the matrix.
// The LDGSTS of B's copies whose three predicated-off LDS a warp runs (regtile_model.hpp): those
// with an active lane, or at a side that is a multiple of 8 all of them.
std::uint64_t b_copies_with_their_lds(std::size_t n, unsigned config);

std::uint64_t b_copy_requests(std::size_t n, unsigned config = 0) {
  const mm::block_tiling& t = rm::tiling_of(kernel::cp_async_pipeline, config);
  const std::uint64_t blocks_x = (n + t.bn - 1) / t.bn, blocks_y = (n + t.bm - 1) / t.bm;
  const unsigned copies = n % 8 == 0 ? 1 : 4, slots = t.bk * t.bn / (4 * t.threads);
  std::uint64_t requests = 0;
  for (std::uint64_t bx = 0; bx < blocks_x; ++bx)
    for (unsigned s = 0; s < mm::inner_steps(n, t.bk); ++s)
      for (unsigned w = 0; w < t.threads / 32; ++w)
        for (unsigned i = 0; i < slots; ++i)
          for (unsigned q = 0; q < copies; ++q) {
            bool active = false;
            for (unsigned lane = 0; lane < 32; ++lane) {
              const unsigned slot = mm::thread_slot(w * 32 + lane, i, t.threads);
              const std::size_t row = mm::step_index(s, t.bk, mm::slot_row(slot, t.bn, 4));
              const std::size_t col = bx * t.bn + mm::slot_col(slot, t.bn, 4) + q;
              active = active || (row < n && col < n);
            }
            requests += active;
          }
  return requests * blocks_y;
}

std::uint64_t b_copies_with_their_lds(std::size_t n, unsigned config) {
  if (n % 8 != 0) return b_copy_requests(n, config);
  const mm::block_tiling& t = rm::tiling_of(kernel::cp_async_pipeline, config);
  const std::uint64_t blocks = ((n + t.bn - 1) / t.bn) * ((n + t.bm - 1) / t.bm);
  return blocks * (t.threads / 32) * mm::inner_steps(n, t.bk) * (t.bk * t.bn / (4 * t.threads));
}

// cp_async_pipeline's A loads with an active lane and the 32-byte sectors their lanes touch,
// from its own slots (pipeline_a_slot_row and _col): one 16-byte load a slot when n % 4 == 0,
// else four 4-byte ones; the same for every block column.
struct loads {
  std::uint64_t requests = 0, sectors = 0;
};
loads a_loads(std::size_t n, unsigned config = 0) {
  const mm::block_tiling& t = rm::tiling_of(kernel::cp_async_pipeline, config);
  const std::uint64_t blocks_x = (n + t.bn - 1) / t.bn, blocks_y = (n + t.bm - 1) / t.bm;
  const bool wide = n % 4 == 0;
  const unsigned count = wide ? 1 : 4, bytes = wide ? 16 : 4;
  const unsigned slots = t.bm * t.bk / (4 * t.threads);
  loads total;
  for (std::uint64_t by = 0; by < blocks_y; ++by)
    for (unsigned s = 0; s < mm::inner_steps(n, t.bk); ++s)
      for (unsigned w = 0; w < t.threads / 32; ++w)
        for (unsigned i = 0; i < slots; ++i)
          for (unsigned q = 0; q < count; ++q) {
            std::vector<std::uint64_t> sectors;
            for (unsigned lane = 0; lane < 32; ++lane) {
              const unsigned slot = mm::thread_slot(w * 32 + lane, i, t.threads);
              const bool cf = mm::pipeline_conflict_free_a[config];
              const std::size_t row = by * t.bm + mm::pipeline_a_slot_row(slot, t.bm, t.bk, cf);
              const std::size_t col =
                  mm::step_index(s, t.bk, mm::pipeline_a_slot_col(slot, t.bm, t.bk, cf) + q);
              if (row >= n || col >= n) continue;
              const std::uint64_t first = (row * n + col) * 4;
              sectors.push_back(first / 32);
              sectors.push_back((first + bytes - 1) / 32);
            }
            std::sort(sectors.begin(), sectors.end());
            sectors.erase(std::unique(sectors.begin(), sectors.end()), sectors.end());
            total.requests += !sectors.empty();
            total.sectors += sectors.size();
          }
  return {total.requests * blocks_x, total.sectors * blocks_x};
}

// The conflict-free A layout: a warp's 32 lanes store to the 32 banks once; 4 consecutive rows
// stay consecutive and aligned (16-byte reads); the B tile starts after the padded A tile. The
// other layout is warp_tiled's, word for word.
TEST(regtile_model, the_conflict_free_a_stores_cover_the_32_banks_once) {
  for (unsigned config = 0; config < mm::warp_tiled_configs; ++config) {
    const mm::block_tiling& t = rm::tiling_of(kernel::cp_async_pipeline, config);
    for (unsigned slot = 0; slot < t.bm * t.bk / 4; ++slot)
      for (unsigned q = 0; q < 4; ++q) {
        const unsigned r = mm::pipeline_a_slot_row(slot, t.bm, t.bk, false);
        const unsigned c = mm::pipeline_a_slot_col(slot, t.bm, t.bk, false) + q;
        EXPECT_EQ(mm::pipeline_a_word(r, c, t.bm, false), mm::a_word(r, c, t.bm, t.bk, true));
      }
    EXPECT_EQ(mm::pipeline_b_word(3, 5, t.bm, t.bn, t.bk, false),
              mm::b_word(3, 5, t.bm, t.bn, t.bk));
    for (unsigned slot0 = 0; slot0 < t.bm * t.bk / 4; slot0 += 32)
      for (unsigned q = 0; q < 4; ++q) {
        std::vector<bool> bank(32, false);
        for (unsigned lane = 0; lane < 32; ++lane) {
          const unsigned r = mm::pipeline_a_slot_row(slot0 + lane, t.bm, t.bk, true);
          const unsigned c = mm::pipeline_a_slot_col(slot0 + lane, t.bm, t.bk, true) + q;
          bank[mm::pipeline_a_word(r, c, t.bm, true) % 32] = true;
        }
        EXPECT_EQ(std::count(bank.begin(), bank.end(), true), 32) << config << " " << slot0;
      }
    for (unsigned c = 0; c < t.bk; ++c)
      for (unsigned r = 0; r < t.bm; r += 4) {
        EXPECT_EQ(mm::pipeline_a_word(r, c, t.bm, true) % 4, 0u);
        EXPECT_EQ(mm::pipeline_a_word(r + 3, c, t.bm, true),
                  mm::pipeline_a_word(r, c, t.bm, true) + 3);
        EXPECT_LT(mm::pipeline_a_word(r + 3, c, t.bm, true),
                  mm::pipeline_b_word(0, 0, t.bm, t.bn, t.bk, true));
      }
  }
}

TEST(regtile_model, shared_load_instructions_follow_the_tiling_at_any_side) {
  for (const point& p : every_kernel) {
    if (p.k == kernel::pad_product || p.k == kernel::pad_with_copies) continue;
    const mm::block_tiling& t = rm::tiling_of(p.k, p.config);
    EXPECT_EQ(rm::shared_loads_per_warp_step(p.k, p.config), derived_loads_per_step(p.k, p.config));
    for (std::size_t n :
         {std::size_t{1000}, std::size_t{1001}, std::size_t{2048}, std::size_t{4096}}) {
      const auto c = rm::predict(p.k, n, p.config);
      const std::uint64_t blocks = ((n + t.bm - 1) / t.bm) * ((n + t.bn - 1) / t.bn);
      const std::uint64_t steps = (n + t.bk - 1) / t.bk;
      // cp_async_pipeline: and the three predicated-off LDS of each B copy (regtile_model.hpp).
      const std::uint64_t predicated_off =
          p.k == kernel::cp_async_pipeline
              ? rm::predicated_off_lds_per_ldgsts * b_copies_with_their_lds(n, p.config)
              : 0;
      EXPECT_EQ(c.shared_ld_instructions,
                blocks * (t.threads / 32) * steps * derived_loads_per_step(p.k, p.config) +
                    predicated_off)
          << static_cast<int>(p.k) << " config " << p.config << " n " << n;
      EXPECT_TRUE(c.shared_ld_inst_exact);
    }
  }
}

TEST(regtile_model, loads_per_fma_fall_with_the_outputs_a_thread) {
  const auto per_fma = [](kernel k, unsigned config = 0) {
    const double n = 4096;
    return static_cast<double>(rm::predict(k, 4096, config).shared_ld_instructions) /
           (n * n * n / 32);
  };
  // pad_to_64: 4 outputs a thread; coarse_1d 8 of a column; register_2d 8 x 8.
  EXPECT_DOUBLE_EQ(per_fma(kernel::pad_product), (4.0 * 32 / 4 + 32) / (32 * 4));
  EXPECT_DOUBLE_EQ(per_fma(kernel::coarse_1d), (8.0 * 8 / 4 + 8) / (8 * 8));
  EXPECT_DOUBLE_EQ(per_fma(kernel::register_2d), (8.0 * 8 / 4 + 8 * 8 / 4) / (8 * 64));
  EXPECT_LT(per_fma(kernel::warp_tiled), per_fma(kernel::vectorized) + 1e-12);
}

TEST(regtile_model, aligned_rows_take_16_byte_loads_and_odd_rows_four_4_byte_loads) {
  // At n = 4096 each A or B slot of 4 floats is one request; at n = 4095 four.
  const auto aligned = rm::predict(kernel::vectorized, 4096);
  const mm::block_tiling& t = mm::vectorized_tiling;
  const std::uint64_t blocks = (4096 / t.bm) * (4096 / t.bn), steps = 4096 / t.bk;
  const std::uint64_t slots_a_warp = (t.bm * t.bk + t.bk * t.bn) / (4 * t.threads);
  EXPECT_EQ(aligned.global_ld_requests, blocks * (t.threads / 32) * steps * slots_a_warp);
  EXPECT_EQ(aligned.global_ld_sectors, 16 * aligned.global_ld_requests);
  // At 4095 four requests a slot, less those whose lanes are all past the last column.
  const auto odd = rm::predict(kernel::vectorized, 4095);
  EXPECT_LE(odd.global_ld_requests, 4 * aligned.global_ld_requests);
  EXPECT_GT(odd.global_ld_requests, 4 * aligned.global_ld_requests * 99 / 100);
}

TEST(regtile_model, every_output_is_stored_once) {
  for (const point& p : every_kernel)
    for (std::size_t n : {std::size_t{77}, std::size_t{2001}}) {
      const std::uint64_t side = mm::padded_side(n);
      std::uint64_t stored = n * n;                          // the kernels write C once
      if (p.k == kernel::pad_product) stored = side * side;  // the padded C
      if (p.k == kernel::pad_with_copies) stored = 3 * side * side + n * n;  // copies and C
      EXPECT_EQ(rm::predict(p.k, n, p.config).global_st_bytes, 4 * stored)
          << static_cast<int>(p.k) << " n " << n;
    }
}

// The pipeline is warp_tiled double-buffered, configuration for configuration: the same tiles,
// so the same global load bytes (B's LDGSTS are loads to the L1's counters) and stores, and the
// same shared reads of the same banks (its A tile padded, pipeline_a_word); B's tile stores gone
// but for the zeros past the matrix; three predicated-off LDS a B copy; its A slots two lanes a
// row instead of BK / 4, stored without a conflict. At whole, aligned tiles (n a multiple of 128)
// every slot is one request on whole sectors either way, so the load requests and sectors are
// warp_tiled's; elsewhere the slots' other lanes touch other sectors (and at n % 8 == 4 the
// pipeline copies B 4 bytes at a time, rows_are_32_byte_aligned: closed form below).
TEST(regtile_model, cp_async_pipeline_moves_warp_tileds_global_traffic_without_its_b_stores) {
  for (std::size_t n : {std::size_t{77}, std::size_t{1000}, std::size_t{1001}, std::size_t{1024},
                        std::size_t{1028}, std::size_t{2048}, std::size_t{4095}})
    for (unsigned config = 0; config < mm::warp_tiled_configs; ++config) {
      SCOPED_TRACE("n " + std::to_string(n) + " config " + std::to_string(config));
      const auto p = rm::predict(kernel::cp_async_pipeline, n, config);
      const auto w = rm::predict(kernel::warp_tiled, n, config);
      if (n % 128 == 0) {
        EXPECT_EQ(p.global_ld_requests, w.global_ld_requests);
        EXPECT_EQ(p.global_ld_sectors, w.global_ld_sectors);
        // The pipeline's tile stores are A's: conflict-free in the configurations that take that
        // layout, warp_tiled's A stores otherwise, which conflict.
        EXPECT_GT(w.shared_st_conflicts, 0u);
        if (mm::pipeline_conflict_free_a[config])
          EXPECT_EQ(p.shared_st_conflicts, 0u);
        else
          EXPECT_GT(p.shared_st_conflicts, 0u);
      }
      EXPECT_EQ(p.global_ld_bytes, w.global_ld_bytes);
      EXPECT_EQ(p.global_st_requests, w.global_st_requests);
      EXPECT_EQ(p.global_st_sectors, w.global_st_sectors);
      EXPECT_EQ(p.shared_ld_wavefronts, w.shared_ld_wavefronts);
      EXPECT_EQ(p.shared_ld_conflicts, w.shared_ld_conflicts);
      EXPECT_EQ(p.shared_ld_instructions,
                w.shared_ld_instructions +
                    rm::predicated_off_lds_per_ldgsts * b_copies_with_their_lds(n, config));
      // Fewer, except at a small odd side: there the zeros past the matrix, one 4-byte STS a
      // float by the lanes outside, cost more wavefronts than warp_tiled's STS.128 of B.
      if (n > 1000) {
        EXPECT_LT(p.shared_st_wavefronts, w.shared_st_wavefronts);
      }
      EXPECT_EQ(p.local_st_requests + p.local_ld_requests, 0u);
    }
}

// At n = 2048, whole tiles: per warp and step 4 LDG.128 of A and 4 LDGSTS.128 of B (16 sectors
// each), A's 16 transposing STS, warp_tiled's 96 LDS.128 and 12 predicated-off LDS; 128 stores a
// thread, each warp store on 8 rows of 4 floats 16 bytes apart (16 sectors).
TEST(regtile_model, cp_async_pipeline_at_2048_in_closed_form) {
  const mm::block_tiling& t = rm::tiling_of(kernel::cp_async_pipeline, 0);
  const std::uint64_t n = 2048, blocks = (n / t.bm) * (n / t.bn), warps = t.threads / 32,
                      warp_steps = blocks * warps * (n / t.bk);
  const auto c = rm::predict(kernel::cp_async_pipeline, n);
  EXPECT_EQ(c.global_ld_requests, warp_steps * (4 + 4));
  EXPECT_EQ(c.global_ld_sectors, 16 * c.global_ld_requests);
  EXPECT_EQ(c.shared_st_instructions, warp_steps * 16);
  EXPECT_EQ(c.shared_ld_instructions, warp_steps * (96 + 3 * 4));
  EXPECT_EQ(c.shared_ld_wavefronts, warp_steps * (32 * 2 + 64 * 4));
  EXPECT_EQ(c.global_st_requests, blocks * warps * 128);
  EXPECT_EQ(c.global_st_sectors, 16 * c.global_st_requests);
}

// n = 1028: rows 4112 bytes long, so every other row of B starts 16 bytes into a sector. A
// 16-byte cp.async on such rows was measured (H200) at 2.83111e6 load sectors, a count neither
// the sectors touched nor bytes / 32 explain, so the kernel copies B 4 bytes at a time there
// (rows_are_32_byte_aligned), while A keeps its 16-byte loads. Each B row of a block is 4
// copies, each on the sectors warp_tiled's 16-byte load of it touches: 16 on an even row, 17 on
// an odd one for the 8 full-width block columns, 1 for the last (4 columns); 9 block rows.
TEST(regtile_model, cp_async_pipeline_copies_b_4_bytes_at_a_time_at_1028) {
  EXPECT_TRUE(mm::rows_are_16_byte_aligned(1028));
  EXPECT_FALSE(mm::rows_are_32_byte_aligned(1028));
  EXPECT_TRUE(mm::rows_are_32_byte_aligned(1024));
  EXPECT_FALSE(mm::rows_are_32_byte_aligned(1001));
  const auto p = rm::predict(kernel::cp_async_pipeline, 1028);
  const auto w = rm::predict(kernel::warp_tiled, 1028, 0);
  const std::uint64_t b_rows = 9u * 9u * 1028u;  // B-tile rows a block copies, all blocks
  const std::uint64_t b_sectors = 9u * (8u * 514u * (16u + 17u) + 1028u);  // warp_tiled's B
  EXPECT_EQ(b_copy_requests(1028), 4 * b_rows);
  EXPECT_EQ(w.global_ld_sectors, 2720088u);
  // The pipeline's loads: its A loads (its own slots) and B's copies, 4 a warp_tiled B load.
  const loads a = a_loads(1028);
  EXPECT_EQ(p.global_ld_requests, a.requests + b_copy_requests(1028));
  EXPECT_EQ(p.global_ld_sectors, a.sectors + 4 * b_sectors);
  EXPECT_EQ(p.global_ld_bytes, w.global_ld_bytes);
}

// cp_async_tuned takes the configuration of the swept side nearest n in ratio, past either end
// that of the end.
TEST(regtile_model, the_tuned_configuration_is_the_nearest_swept_sides) {
  const auto config_at = [](std::size_t side) {
    for (const mm::tuned_config& t : mm::tuned_pipeline_configs)
      if (t.side == side) return t.config;
    throw std::logic_error("no swept side " + std::to_string(side));
  };
  for (const mm::tuned_config& t : mm::tuned_pipeline_configs)
    EXPECT_EQ(mm::tuned_pipeline_config(t.side), t.config) << t.side;
  EXPECT_EQ(mm::tuned_pipeline_config(520), config_at(512));
  EXPECT_EQ(mm::tuned_pipeline_config(700), config_at(512));
  EXPECT_EQ(mm::tuned_pipeline_config(1030), config_at(1024));
  EXPECT_EQ(mm::tuned_pipeline_config(1), config_at(256));
  EXPECT_EQ(mm::tuned_pipeline_config(mm::max_side), config_at(8192));
}

TEST(regtile_model, predictions_stay_cheap_at_the_largest_side) {
  for (const point& p : every_kernel)
    EXPECT_LT(rm::prediction_cost(p.k, mm::max_side, p.config), 5e6);
}

}  // namespace
