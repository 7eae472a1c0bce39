// The shared-memory half of the access model: wavefronts and bank conflicts of single warp
// instructions, of the 32x32 transpose tile, and of the Harris reductions #1-#3, against the
// per-instruction rule and the per-block formulas of docs/access_model.md.
//
// Instruction counts differ from the hardware on purpose: smsp__inst_executed_op_shared_ld/st
// counts every LDS/STS a warp issues, including fully predicated-off ones (129 LDS and 72 STS
// per 256-thread block in all three reductions), while shared_*_instructions counts only warp
// instructions with an active lane. Wavefronts and conflicts agree: an instruction without an
// active lane costs none.
#include "cudalab/model/access_model.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace model = cudalab::model;

namespace {

model::access_counts one(model::access_kind kind, unsigned width,
                         const std::function<std::optional<std::uint64_t>(unsigned)>& lane_fn) {
  return model::count_warp_access(
      model::make_warp_access(model::memory_space::shared, kind, width, lane_fn));
}
model::access_counts lds(unsigned width,
                         const std::function<std::optional<std::uint64_t>(unsigned)>& lane_fn) {
  return one(model::access_kind::load, width, lane_fn);
}

// What the shared loads of `c` cost: wavefronts, and the conflicts among them.
void expect_ld_cost(const model::access_counts& c, std::uint64_t wavefronts,
                    std::uint64_t conflicts) {
  EXPECT_EQ(c.shared_ld_wavefronts, wavefronts);
  EXPECT_EQ(c.shared_ld_conflicts, conflicts);
}

// The lanes of a strided access: lane l at byte l * stride_bytes.
std::function<std::optional<std::uint64_t>(unsigned)> lanes_apart(std::uint64_t stride_bytes) {
  return [stride_bytes](unsigned lane) { return stride_bytes * lane; };
}

}  // namespace

TEST(shared_bank_model, consecutive_words_take_1_wavefront) {
  const auto c = lds(4, lanes_apart(4));
  EXPECT_EQ(c.shared_ld_instructions, 1u);
  expect_ld_cost(c, 1u, 0u);
}

TEST(shared_bank_model, column_of_32x32_float_tile_is_a_32_way_conflict) {
  for (unsigned col = 0; col < 32; ++col) {
    const auto c = lds(4, [col](unsigned lane) { return 4 * (32 * lane + col); });
    EXPECT_EQ(c.shared_ld_wavefronts, 32u) << col;
    EXPECT_EQ(c.shared_ld_conflicts, 31u) << col;
  }
}

TEST(shared_bank_model, column_of_tile_padded_to_33_is_conflict_free) {
  for (unsigned col = 0; col < 32; ++col) {
    const auto c = lds(4, [col](unsigned lane) { return 4 * (33 * lane + col); });
    EXPECT_EQ(c.shared_ld_wavefronts, 1u) << col;
    EXPECT_EQ(c.shared_ld_conflicts, 0u) << col;
  }
}

TEST(shared_bank_model, one_word_read_by_every_lane_is_broadcast) {
  const auto c = lds(4, [](unsigned) { return 4 * 77; });
  expect_ld_cost(c, 1u, 0u);
}

TEST(shared_bank_model, bytes_of_one_word_are_broadcast) {
  const auto c = lds(1, [](unsigned lane) { return lane; });  // 8 words, banks 0..7
  EXPECT_EQ(c.shared_ld_wavefronts, 1u);
  const auto h = lds(2, [](unsigned lane) { return 2 * lane * 32; });  // 64 bytes apart: 2-way
  expect_ld_cost(h, 16u, 15u);
}

TEST(shared_bank_model, two_way_stride_takes_2_wavefronts) {
  expect_ld_cost(lds(4, lanes_apart(8)), 2u, 1u);
}

TEST(shared_bank_model, float2_runs_in_two_conflict_free_half_warp_phases) {
  expect_ld_cost(lds(8, lanes_apart(8)), 2u, 0u);
  // Only the first half-warp active: one phase, ideal 1.
  const auto half = lds(8, [](unsigned lane) -> std::optional<std::uint64_t> {
    if (lane >= 16) return std::nullopt;
    return 8 * lane;
  });
  expect_ld_cost(half, 1u, 0u);
}

TEST(shared_bank_model, float2_with_a_16_word_stride_conflicts_within_each_half_warp) {
  // Lane l touches words 16l, 16l+1: banks 0,1 or 16,17; 8 distinct words a bank a phase.
  expect_ld_cost(lds(8, lanes_apart(64)), 16u, 14u);
}

TEST(shared_bank_model, float4_loads_follow_the_half_warp_rule_measured_on_the_h100) {
  expect_ld_cost(lds(16, lanes_apart(16)), 4u, 0u);
  const auto same = lds(16, [](unsigned) { return 0; });  // one broadcast a half-warp
  expect_ld_cost(same, 2u, 0u);
  // Four addresses, each read by lanes 0, 4, 8, 12 of a half (a warp tile's B fragment): both
  // quarters read the same 16 words, and each bank serves them once a quarter.
  const auto repeated = lds(16, [](unsigned lane) { return 16 * (lane % 4); });
  expect_ld_cost(repeated, 4u, 0u);
  // Four rows a half, each read by 4 neighbouring lanes (its A fragment), 32 bytes apart:
  // 16 banks, no bank twice: one wavefront a half.
  const auto rows = lds(16, [](unsigned lane) { return 32 * (lane / 4); });
  expect_ld_cost(rows, 2u, 0u);
  // A row stride of 32 floats puts a quarter-warp's 8 lanes on the same 4 banks: 8-way.
  const auto column = lds(16, [](unsigned lane) { return 128 * lane; });
  expect_ld_cost(column, 32u, 28u);
}

TEST(shared_bank_model, warp_without_an_active_lane_costs_nothing) {
  const auto c = lds(4, [](unsigned) { return std::nullopt; });
  EXPECT_EQ(c, model::access_counts{});
}

// transpose, blockDim 32x32 over a 1024x1024 matrix: the warp with threadIdx.y = ty reads
// tile[tx][ty] (word tx * pitch + ty) and writes tile[ty][tx] (word ty * pitch + tx).
model::access_counts transpose_tile_traffic(unsigned pitch) {
  constexpr unsigned matrix = 1024;
  constexpr unsigned tile = 32;
  model::access_model m;
  model::for_each_warp_2d(
      matrix / tile, matrix / tile, tile, tile, [&](const model::warp_threads_2d& w) {
        m.record(model::make_warp_access(model::memory_space::shared, model::access_kind::store, 4,
                                         w, [&](const model::warp_threads_2d& ww, unsigned lane) {
                                           return std::uint64_t{4} *
                                                  (ww.thread_y(lane) * pitch + ww.thread_x(lane));
                                         }));
        m.record(model::make_warp_access(model::memory_space::shared, model::access_kind::load, 4,
                                         w, [&](const model::warp_threads_2d& ww, unsigned lane) {
                                           return std::uint64_t{4} *
                                                  (ww.thread_x(lane) * pitch + ww.thread_y(lane));
                                         }));
      });
  return m.counts();
}

// The tile at `pitch`: 32768 loads and 32768 conflict-free row stores whatever the pitch; the
// loads' cost is what the pitch changes.
void expect_transpose_tile(unsigned pitch, std::uint64_t ld_wavefronts,
                           std::uint64_t ld_conflicts) {
  const auto c = transpose_tile_traffic(pitch);
  EXPECT_EQ(c.shared_ld_instructions, 32768u);
  expect_ld_cost(c, ld_wavefronts, ld_conflicts);
  EXPECT_EQ(c.shared_st_wavefronts, 32768u);
  EXPECT_EQ(c.shared_st_conflicts, 0u);
}

TEST(shared_bank_model, transpose_32x32_tile_unpadded_totals) {
  expect_transpose_tile(32, 1048576u, 1015808u);
}

TEST(shared_bank_model, transpose_32x33_padded_tile_totals) {
  expect_transpose_tile(33, 32768u, 0u);
}

// The shared-memory instructions of one block of Harris's reductions #1-#3 (256 threads,
// sdata = 256 ints at offset 0), in issue order, every warp issuing each instruction (a lane is
// active where the kernel's condition holds):
//   sdata[tid] = g_idata[i];                                   1 STS
//   loop over s (8 iterations): [cond] sdata[dst] += sdata[src];  2 LDS + 1 STS
//   if (tid == 0) g_odata[blockIdx.x] = sdata[0];                1 LDS, warp 0 only
// which is 8 * (2 * 8) + 1 = 129 LDS and 8 + 8 * 8 = 72 STS per block, as counted on the H100.
enum class harris { interleaved_divergent, interleaved_strided, sequential };

struct block_traffic {
  model::access_counts counts;
  unsigned lds_issued = 0;
  unsigned sts_issued = 0;
};

block_traffic reduction_block(harris kernel) {
  constexpr unsigned threads = 256;
  block_traffic out;
  model::access_model m;
  const auto issue = [&](const model::warp_threads& w, model::access_kind kind,
                         const std::function<std::optional<std::uint64_t>(unsigned)>& word) {
    (kind == model::access_kind::load ? out.lds_issued : out.sts_issued) += 1;
    m.record(model::make_warp_access(
        model::memory_space::shared, kind, 4, w,
        [&](const model::warp_threads& ww, unsigned lane) -> std::optional<std::uint64_t> {
          const auto wd = word(ww.thread_in_block(lane));
          if (!wd) return std::nullopt;
          return 4 * *wd;
        }));
  };
  std::vector<unsigned> strides;
  if (kernel == harris::sequential) {
    for (unsigned s = threads / 2; s > 0; s >>= 1) strides.push_back(s);
  } else {
    for (unsigned s = 1; s < threads; s *= 2) strides.push_back(s);
  }
  const auto pair = [kernel](unsigned tid, unsigned s) -> std::optional<unsigned> {
    switch (kernel) {
      case harris::interleaved_divergent:
        return tid % (2 * s) == 0 ? std::optional<unsigned>(tid) : std::nullopt;
      case harris::interleaved_strided:
        return 2 * s * tid < threads ? std::optional<unsigned>(2 * s * tid) : std::nullopt;
      case harris::sequential:
        return tid < s ? std::optional<unsigned>(tid) : std::nullopt;
    }
    return std::nullopt;
  };
  const auto to_word = [](std::optional<unsigned> v, unsigned add) -> std::optional<std::uint64_t> {
    if (!v) return std::nullopt;
    return *v + add;
  };
  model::for_each_warp(threads, threads, [&](const model::warp_threads& w) {
    issue(w, model::access_kind::store,
          [](unsigned tid) { return std::optional<std::uint64_t>(tid); });
  });
  for (unsigned s : strides) {
    model::for_each_warp(threads, threads, [&](const model::warp_threads& w) {
      issue(w, model::access_kind::load, [&](unsigned tid) { return to_word(pair(tid, s), 0); });
      issue(w, model::access_kind::load, [&](unsigned tid) { return to_word(pair(tid, s), s); });
      issue(w, model::access_kind::store, [&](unsigned tid) { return to_word(pair(tid, s), 0); });
    });
  }
  model::for_each_warp(threads, threads, [&](const model::warp_threads& w) {
    if (w.warp_in_block() != 0) return;  // the other warps branch away from the final store
    issue(w, model::access_kind::load,
          [](unsigned tid) { return tid == 0 ? std::optional<std::uint64_t>(0) : std::nullopt; });
  });
  out.counts = m.counts();
  return out;
}

TEST(shared_bank_model, reductions_issue_129_lds_and_72_sts_per_block) {
  for (harris k :
       {harris::interleaved_divergent, harris::interleaved_strided, harris::sequential}) {
    const auto b = reduction_block(k);
    EXPECT_EQ(b.lds_issued, 129u);
    EXPECT_EQ(b.sts_issued, 72u);
  }
}

TEST(shared_bank_model, reduction_interleaved_divergent_has_no_true_conflicts) {
  const auto c = reduction_block(harris::interleaved_divergent).counts;
  expect_ld_cost(c, 95u, 0u);
  EXPECT_EQ(c.shared_st_wavefronts, 55u);
  EXPECT_EQ(c.shared_st_conflicts, 0u);
  EXPECT_EQ(c.shared_ld_instructions, 95u);  // of 129 issued: the rest are predicated off
  EXPECT_EQ(4096u * c.shared_ld_wavefronts, 389120u);
}

TEST(shared_bank_model, reduction_interleaved_strided_sts_takes_55_wavefronts_for_20_ideal) {
  const auto c = reduction_block(harris::interleaved_strided).counts;
  EXPECT_EQ(c.shared_st_instructions, 20u);  // ideal wavefronts: one a warp instruction
  EXPECT_EQ(c.shared_st_wavefronts, 55u);
  EXPECT_EQ(c.shared_st_conflicts, 35u);
  EXPECT_EQ(c.shared_ld_instructions, 25u);
  expect_ld_cost(c, 95u, 70u);
  // 4,096 blocks (2^20 ints): STS conflicts measured exactly 143,360 on the H100.
  EXPECT_EQ(4096u * c.shared_st_conflicts, 143360u);
  EXPECT_EQ(4096u * c.shared_ld_conflicts, 286720u);
}

TEST(shared_bank_model, reduction_sequential_is_conflict_free) {
  const auto c = reduction_block(harris::sequential).counts;
  EXPECT_EQ(c.shared_st_wavefronts, 20u);
  EXPECT_EQ(c.shared_ld_wavefronts, 25u);
  EXPECT_EQ(c.shared_st_conflicts, 0u);
  EXPECT_EQ(c.shared_ld_conflicts, 0u);
  EXPECT_EQ(c.shared_st_instructions, 20u);
  EXPECT_EQ(c.shared_ld_instructions, 25u);
  EXPECT_EQ(4096u * c.shared_st_wavefronts, 81920u);
  EXPECT_EQ(4096u * c.shared_ld_wavefronts, 102400u);
}
