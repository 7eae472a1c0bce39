// The instruction model (a walk through the embedded SASS) against what follows from the
// kernels' source: the divergence model's branches, the loops' branch counts, the lanes that
// are left after `if (tid == 0)`. The GPU tests hold the same predictions to the hardware.
#include "reduction_divergence_model.hpp"
#include "reduction_instruction_model.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/model/sass_program.hpp"

#include <gtest/gtest.h>

#include <string>

namespace rm = cudalab::labs::reduction_model;
namespace sass = cudalab::model::sass;
using rm::kernel;

namespace {

const kernel trees[] = {kernel::interleaved_divergent, kernel::interleaved_strided,
                        kernel::sequential, kernel::first_add, kernel::warp_shuffle};
const unsigned blocks[] = {32, 64, 128, 256, 512, 1024};
const std::size_t sizes[] = {1, 1000003, std::size_t{1} << 20, (std::size_t{1} << 20) + 7};

sass::instruction_counts predicted(kernel k, std::size_t n, unsigned block) {
  const auto p = rm::predict_instructions(k, n, block);
  EXPECT_TRUE(p.counts.has_value()) << p.unavailable;
  return p.counts.value_or(sass::instruction_counts{});
}

unsigned log2_of(unsigned v) {
  unsigned l = 0;
  while ((1u << l) < v) ++l;
  return l;
}

std::uint64_t tree_blocks(kernel k, std::size_t n, unsigned block) {
  return rm::blocks_of(k, n, block);
}

}  // namespace

TEST(instruction_model, the_build_embedded_the_sass_of_every_reduction_kernel) {
  const auto program = sass::program::parse(rm::reduction_sass());
  for (const char* name :
       {"reduce_interleaved_divergent_kernel", "reduce_interleaved_strided_kernel",
        "reduce_sequential_kernel", "reduce_first_add_kernel", "reduce_warp_shuffle_kernel",
        "reduce_finish_kernel", "reduce_grid_stride_kernel"})
    for (const char* type : {"IfE", "IiE"}) {
      const std::string mangled = "_ZN7cudalab9reduction" +
                                  std::to_string(std::string(name).size()) + name + type +
                                  "EvPKT_PS2_j";
      EXPECT_NE(program.find(mangled), nullptr) << mangled;
    }
  for (kernel k : {kernel::interleaved_divergent, kernel::interleaved_strided, kernel::sequential,
                   kernel::first_add, kernel::warp_shuffle, kernel::finish, kernel::grid_stride})
    for (bool integers : {false, true}) {
      const auto p = rm::predict_instructions(k, 1000003, 256, integers);
      EXPECT_TRUE(p.counts.has_value()) << p.unavailable;
    }
}

// Two models, one from the source (which lanes split at each step), one from the binary.
TEST(instruction_model, divergent_branches_agree_with_the_divergence_model) {
  for (kernel k : trees)
    for (unsigned block : blocks)
      for (std::size_t n : sizes) {
        SCOPED_TRACE(testing::Message()
                     << "kernel " << static_cast<int>(k) << " block " << block << " n " << n);
        EXPECT_EQ(predicted(k, n, block).divergent_branches,
                  rm::predict_divergence(k, n, block).divergent_branches);
      }
}

// Each warp takes the `skip the loop` test once and the loop's back edge once a step;
// interleaved_divergent adds, each step, the test around the call and, in warps that call,
// CALL and RET.
TEST(instruction_model, branches_follow_from_the_source_loops) {
  for (kernel k : trees)
    for (unsigned block : blocks) {
      const std::size_t n = 1000003;
      SCOPED_TRACE(testing::Message() << "kernel " << static_cast<int>(k) << " block " << block);
      const std::uint64_t warps = tree_blocks(k, n, block) * (block / 32);
      const auto c = predicted(k, n, block);
      const unsigned log = log2_of(block);
      switch (k) {
        case kernel::interleaved_divergent: {
          const auto d = rm::predict_divergence(k, n, block);
          EXPECT_EQ(c.uniform_branches + c.divergent_branches,
                    warps * (1 + 2 * log) + 2 * d.body_warps);
          break;
        }
        case kernel::warp_shuffle:  // the shared steps stop at s = 64; the rest is shuffles
          EXPECT_EQ(c.uniform_branches, warps * (1 + (block >= 128 ? log - 6 : 0)));
          EXPECT_EQ(c.divergent_branches, 0u);
          break;
        default:
          EXPECT_EQ(c.uniform_branches, warps * (1 + log));
          EXPECT_EQ(c.divergent_branches, 0u);
      }
    }
}

// In the predicated trees every instruction runs with all 32 lanes, except the ones after
// `if (tid == 0)`: the other lanes have exited there, and block 0's thread 0 runs the store
// alone. So thread instructions = 32 x warp instructions - 31 x (that tail) x blocks, with the
// tail read from the SASS: the instructions after the last conditional EXIT.
TEST(instruction_model, predicated_trees_run_whole_warps_until_thread_0_is_alone) {
  const auto program = sass::program::parse(rm::reduction_sass());
  const std::pair<kernel, const char*> predicated[] = {
      {kernel::interleaved_strided,
       "_ZN7cudalab9reduction33reduce_interleaved_strided_kernelIfEEvPKT_PS2_j"},
      {kernel::sequential, "_ZN7cudalab9reduction24reduce_sequential_kernelIfEEvPKT_PS2_j"},
      {kernel::first_add, "_ZN7cudalab9reduction23reduce_first_add_kernelIfEEvPKT_PS2_j"}};
  for (const auto& [k, name] : predicated) {
    const sass::function* f = program.find(name);
    ASSERT_NE(f, nullptr) << name;
    std::size_t last_exit = 0, final_exit = 0;
    for (std::size_t i = 0; i < f->code.size(); ++i)
      if (f->code[i].base_opcode() == "EXIT")
        (f->code[i].conditional() ? last_exit : final_exit) = i;
    const std::uint64_t tail = final_exit - last_exit;
    for (unsigned block : blocks) {
      const std::size_t n = (std::size_t{1} << 20) + 7;
      SCOPED_TRACE(testing::Message() << name << " block " << block);
      const auto c = predicted(k, n, block);
      EXPECT_EQ(c.thread_instructions,
                32 * c.warp_instructions - 31 * tail * tree_blocks(k, n, block));
      EXPECT_DOUBLE_EQ(c.branch_uniformity_pct(), 100.0);
    }
  }
}

TEST(instruction_model, interleaved_divergent_runs_a_quarter_of_its_lanes_idle) {
  for (unsigned block : blocks) {
    SCOPED_TRACE(testing::Message() << "block " << block);
    const auto divergent = predicted(kernel::interleaved_divergent, 1u << 20, block);
    const auto sequential = predicted(kernel::sequential, 1u << 20, block);
    const auto d = rm::predict_divergence(kernel::interleaved_divergent, 1u << 20, block);
    EXPECT_LT(divergent.threads_per_instruction(), 0.8 * sequential.threads_per_instruction());
    EXPECT_GT(divergent.threads_per_instruction(), d.body_lanes_per_warp());
    EXPECT_LT(divergent.branch_uniformity_pct(), 85.0);
  }
}

TEST(instruction_model, whole_blocks_scale_the_counts) {
  for (kernel k : trees) {
    const auto one = predicted(k, 1u << 20, 256);
    const auto four = predicted(k, 1u << 22, 256);
    EXPECT_EQ(four.warp_instructions, 4 * one.warp_instructions);
    EXPECT_EQ(four.thread_instructions, 4 * one.thread_instructions);
    EXPECT_EQ(four.uniform_branches, 4 * one.uniform_branches);
  }
}

// grid_stride's load loop: lane g runs ceil((n/4 - g) / stride) trips. Where the lanes with
// one trip more end mid-warp, that warp's back edge splits once; nowhere else.
TEST(instruction_model, grid_stride_diverges_only_where_the_load_loop_ends_mid_warp) {
  for (std::size_t n :
       {std::size_t{1} << 20, std::size_t{1000003}, std::size_t{1} << 24, std::size_t{3000}})
    for (unsigned block : {32u, 256u, 1024u}) {
      SCOPED_TRACE(testing::Message() << "n " << n << " block " << block);
      const std::uint64_t stride =
          std::uint64_t{cudalab::reduction::grid_stride_blocks(n, block)} * block;
      const std::uint64_t longer = (n / 4) % stride;  // lanes 0..longer-1 run one trip more
      const auto c = predicted(kernel::grid_stride, n, block);
      EXPECT_EQ(c.divergent_branches, longer % 32 != 0 ? 1u : 0u);
    }
}

TEST(instruction_model, rejects_a_block_the_kernels_reject) {
  EXPECT_THROW(rm::predict_instructions(kernel::sequential, 1024, 48), cudalab::usage_error);
}

namespace cudalab::labs {
lab make_lab_05_reduction();
}

// The lab tells the learner when its build cannot predict instructions (the -G build, a
// build without cuobjdump); this release build can, so it says nothing.
TEST(instruction_model, the_release_build_has_nothing_to_excuse) {
  const auto l = cudalab::labs::make_lab_05_reduction();
  ASSERT_TRUE(static_cast<bool>(l.notes));
  EXPECT_TRUE(l.notes().empty());
}
