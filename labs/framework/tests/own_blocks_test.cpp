// --block and the variants whose kernels launch the blocks their tiles need (lab 03's tiled
// products, lab 06's transposes, lab 08's register-tiled products): they run once whatever
// --block lists, their rows carry the block they launched, and a run where no kernel would use
// --block is refused before any work.
#include "cudalab/check.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <gtest/gtest.h>

#include <map>

namespace cudalab {
namespace {

run_request predictions_of(const char* lab_name, std::vector<int> blocks) {
  run_request r;
  r.which = find_lab(lab_name);
  r.gpu = false;
  r.sizes = {257};
  r.blocks = std::move(blocks);
  return r;
}

TEST(own_blocks, tiled_rows_carry_the_blocks_their_tiles_need_and_naive_rows_the_users) {
  run_request r = predictions_of("03", {96, 128});
  ASSERT_NE(r.which, nullptr);
  r.variants = {r.which->find("naive"), r.which->find("tiled")};
  r.sweep.values["tile"] = {8, 32};
  std::vector<std::string> notes;
  r.omitted = [&notes](const std::string& what) { notes.push_back(what); };
  std::multimap<std::string, int> blocks;
  for (const result_row& row : run_lab(r)) blocks.emplace(row.variant_name, row.config.block);
  EXPECT_EQ(blocks.count("naive"), 2u);
  EXPECT_EQ(blocks.count("tiled"), 2u);  // once a tile, not once a --block value
  std::vector<int> tiled;
  for (auto [at, end] = blocks.equal_range("tiled"); at != end; ++at) tiled.push_back(at->second);
  EXPECT_EQ(tiled, (std::vector<int>{8 * 8, 32 * 32}));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0], "--block is not used by tiled: their rows show their tiles' blocks");
}

TEST(own_blocks, a_run_where_no_kernel_would_use_block_is_refused) {
  for (const char* name : {"06", "08"}) {
    run_request r = predictions_of(name, {96});
    try {
      run_lab(r);
      ADD_FAILURE() << name << ": --block 96 was accepted";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("--block does not apply to"), std::string::npos)
          << e.what();
    }
  }
  run_request tiled_only = predictions_of("03", {96});
  tiled_only.variants = {tiled_only.which->find("tiled")};
  EXPECT_THROW(run_lab(tiled_only), usage_error);
}

TEST(own_blocks, lab_06_and_08_rows_show_the_blocks_their_kernels_launch) {
  const std::map<std::string, int> expected = {
      {"copy", 256},      {"shared_tile", 1024}, {"tile_rows", 256},  {"pad_to_64", 256},
      {"coarse_1d", 512}, {"register_2d", 256},  {"vectorized", 256},
  };
  for (const char* name : {"06", "08"})
    for (const result_row& row : run_lab(predictions_of(name, {}))) {
      const auto found = expected.find(row.variant_name);
      if (found != expected.end()) {
        EXPECT_EQ(row.config.block, found->second) << row.variant_name;
      }
    }
}

}  // namespace
}  // namespace cudalab
