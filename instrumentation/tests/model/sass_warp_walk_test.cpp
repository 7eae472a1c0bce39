// The warp walk on small hand-written programs whose counts are worked out in the comments.
#include "cudalab/model/sass_warp_walk.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace sass = cudalab::model::sass;

namespace {

sass::function parse_one(const std::string& body) {
  auto p = sass::program::parse("Function : f\n" + body);
  return p.functions().at(0);
}

const sass::lane_decision never = [](std::size_t, unsigned, std::uint32_t) { return false; };

}  // namespace

TEST(sass_warp_walk, straight_code_counts_every_lane_of_every_instruction) {
  const auto f = parse_one(
      "/*0000*/ MOV R0, R1 ;\n"
      "/*0010*/ @P0 IADD3 R0, R0, 1, RZ ;\n"  // predicated: issued, every active lane counted
      "/*0020*/ EXIT ;\n");
  const auto c = sass::walk_warp(f, 0x0000ffffu, never);  // a 16-lane warp
  EXPECT_EQ(c.warp_instructions, 3u);
  EXPECT_EQ(c.thread_instructions, 48u);
  EXPECT_EQ(c.uniform_branches + c.divergent_branches, 0u);
  EXPECT_DOUBLE_EQ(c.threads_per_instruction(), 16.0);
  EXPECT_DOUBLE_EQ(c.branch_uniformity_pct(), 0.0);  // ncu prints 0 without branches
}

TEST(sass_warp_walk, a_uniform_loop_runs_its_body_once_per_taken_back_edge) {
  const auto f = parse_one(
      "/*0000*/ MOV R0, RZ ;\n"
      "/*0010*/ IADD3 R0, R0, 1, RZ ;\n"
      "/*0020*/ @P0 BRA 0x10 ;\n"  // site 0
      "/*0030*/ EXIT ;\n");
  const auto c =
      sass::walk_warp(f, 0xffffffffu, [](std::size_t site, unsigned, std::uint32_t visit) {
        EXPECT_EQ(site, 0u);
        return visit + 1 < 4;  // four iterations
      });
  EXPECT_EQ(c.warp_instructions, 1u + 4 * 2 + 1);
  EXPECT_EQ(c.thread_instructions, 32u * 10);
  EXPECT_EQ(c.uniform_branches, 4u);
  EXPECT_EQ(c.divergent_branches, 0u);
  EXPECT_DOUBLE_EQ(c.branch_uniformity_pct(), 100.0);
}

TEST(sass_warp_walk, a_divergent_branch_runs_each_side_to_the_bsync_then_reconverges) {
  // Lanes 0..7 skip the call (BRA taken); lanes 8..31 run CALL, the 3-instruction callee
  // and RET. Both parts issue BSYNC.
  const auto f = parse_one(
      "/*0000*/ BSSY B0, 0x40 ;\n"
      "/*0010*/ @P0 BRA 0x30 ;\n"
      "/*0020*/ CALL.REL.NOINC 0x60 ;\n"
      "/*0030*/ BSYNC B0 ;\n"
      "/*0040*/ MOV R0, R1 ;\n"
      "/*0050*/ EXIT ;\n"
      "/*0060*/ LDS R0, [R1] ;\n"
      "/*0070*/ STS [R1], R0 ;\n"
      "/*0080*/ RET.REL.NODEC R4 0x0 ;\n"
      "/*0090*/ BRA 0x90;\n");
  const auto c = sass::walk_warp(
      f, 0xffffffffu, [](std::size_t, unsigned lane, std::uint32_t) { return lane < 8; });
  // Whole warp: BSSY, BRA, MOV, EXIT (4 x 32). Callers: CALL, LDS, STS, RET, BSYNC (5 x 24).
  // Skippers: BSYNC (1 x 8).
  EXPECT_EQ(c.warp_instructions, 4u + 5 + 1);
  EXPECT_EQ(c.thread_instructions, 4u * 32 + 5 * 24 + 8);
  EXPECT_EQ(c.divergent_branches, 1u);  // the BRA
  EXPECT_EQ(c.uniform_branches, 2u);    // CALL and RET
  EXPECT_NEAR(c.branch_uniformity_pct(), 100.0 * 2 / 3, 1e-9);
}

TEST(sass_warp_walk, a_warp_whose_lanes_all_skip_issues_nothing_of_the_body) {
  const auto f = parse_one(
      "/*0000*/ BSSY B0, 0x40 ;\n"
      "/*0010*/ @P0 BRA 0x30 ;\n"
      "/*0020*/ STS [R1], R0 ;\n"
      "/*0030*/ BSYNC B0 ;\n"
      "/*0040*/ EXIT ;\n");
  const auto c =
      sass::walk_warp(f, 0xffffffffu, [](std::size_t, unsigned, std::uint32_t) { return true; });
  EXPECT_EQ(c.warp_instructions, 4u);  // BSSY, BRA, BSYNC, EXIT
  EXPECT_EQ(c.uniform_branches, 1u);
  EXPECT_EQ(c.divergent_branches, 0u);
}

TEST(sass_warp_walk, lanes_that_exit_early_stop_counting) {
  const auto f = parse_one(
      "/*0000*/ MOV R0, R1 ;\n"
      "/*0010*/ @P0 EXIT ;\n"  // all lanes but lane 0 leave
      "/*0020*/ STG.E [R2.64], R0 ;\n"
      "/*0030*/ EXIT ;\n");
  const auto c = sass::walk_warp(
      f, 0xffffffffu, [](std::size_t, unsigned lane, std::uint32_t) { return lane != 0; });
  EXPECT_EQ(c.warp_instructions, 4u);
  EXPECT_EQ(c.thread_instructions, 32u + 32 + 1 + 1);
  EXPECT_EQ(c.uniform_branches + c.divergent_branches, 0u);  // EXIT is not a branch target
}

TEST(sass_warp_walk, a_per_lane_loop_diverges_at_the_last_trip_of_the_shorter_lanes) {
  // Lanes 0..3 loop 3 times, the others twice: the back edge splits on the second visit.
  const auto f = parse_one(
      "/*0000*/ BSSY B0, 0x40 ;\n"
      "/*0010*/ LDG.E R0, [R2.64] ;\n"
      "/*0020*/ @P0 BRA 0x10 ;\n"
      "/*0030*/ BSYNC B0 ;\n"
      "/*0040*/ EXIT ;\n");
  const auto c =
      sass::walk_warp(f, 0xffffffffu, [](std::size_t, unsigned lane, std::uint32_t visit) {
        return visit + 1 < (lane < 4 ? 3u : 2u);
      });
  // BSSY 32; trip 1 (LDG, BRA) 32; trip 2 (LDG, BRA) 32 -> splits; lanes 4..31 BSYNC;
  // lanes 0..3: LDG, BRA (not taken), BSYNC; then EXIT 32.
  EXPECT_EQ(c.warp_instructions, 1u + 2 + 2 + 1 + 3 + 1);
  EXPECT_EQ(c.thread_instructions, 32u * 6 + 28 + 4 * 3);
  EXPECT_EQ(c.divergent_branches, 1u);
  EXPECT_EQ(c.uniform_branches, 2u);  // trip 1's back edge, and lanes 0..3's last one
}

TEST(sass_warp_walk, a_loop_the_model_never_ends_is_an_error_not_a_hang) {
  const auto f = parse_one("/*0000*/ @P0 BRA 0x0 ;\n/*0010*/ EXIT ;\n");
  EXPECT_THROW(sass::walk_warp(
                   f, 1u, [](std::size_t, unsigned, std::uint32_t) { return true; }, 1000),
               std::runtime_error);
}

TEST(sass_warp_walk, reaching_the_trap_after_the_last_exit_is_an_error) {
  const auto f = parse_one("/*0000*/ MOV R0, R1 ;\n/*0010*/ BRA 0x10;\n");
  EXPECT_THROW(sass::walk_warp(f, 1u, never), std::runtime_error);
}

TEST(sass_warp_walk, counts_the_conditional_sites_a_model_answers_for) {
  const auto f = parse_one(
      "/*0000*/ @P0 BRA 0x20 ;\n/*0010*/ @PT BRA 0x20 ;\n/*0020*/ @!P1 EXIT ;\n"
      "/*0030*/ @P2 STS [R1], R0 ;\n/*0040*/ EXIT ;\n");
  EXPECT_EQ(sass::conditional_sites(f), 2u);
}
