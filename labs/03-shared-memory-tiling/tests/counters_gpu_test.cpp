// Lab 03 counters against the model, on the release build (-G changes the counts).
//
//  - Global load and store requests and sectors are deterministic: equal to the model, at odd
//    sides (edge blocks, rows off 32-byte boundaries) and at a multiple of every tile.
//  - Shared wavefronts and bank conflicts, read per instruction by the SASS-level counters, are
//    equal to the model too (docs/counters.md); the data stage's own counts are not compared.
//  - The store-in-loop kernel writes ceil(n/T) times the tiled kernel's stores, measured.
#include "matmul_lab.hpp"
#include "matmul_model.hpp"
#include "matmul_variants.hpp"

#include "matmul/matmul_index.cuh"

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

using cudalab::launch_config;

using namespace cudalab::testing::counted;  // the CUPTI names of the counts compared

class matmul_counters : public cudalab::testing::counted_launch_test {
 protected:
  std::vector<std::string> metrics() const override {
    return cudalab::resolve_metrics(
        "memory,shared_ld_wavefronts,shared_st_wavefronts,shared_ld_conflicts,shared_st_conflicts");
  }

  totals measure(const std::string& name, const launch_config& c) {
    return measure_variant(m_lab, name, c);
  }
  cudalab::model::access_counts predicted(const std::string& name, const launch_config& c) {
    return m_lab.find(name)->predict(c);
  }

  const cudalab::lab m_lab = cudalab::labs::make_lab_03_shared_memory_tiling();
};

struct point {
  const char* variant;
  int block;
  long tile;
};
const point modelled[] = {{"naive", 256, 0},           {"naive", 32, 0},
                          {"naive", 1024, 0},          {"tiled", 256, 2},
                          {"tiled", 256, 4},           {"tiled", 256, 8},
                          {"tiled", 256, 16},          {"tiled", 256, 32},
                          {"tiled_unguarded", 256, 0}, {"tiled_store_in_loop", 256, 0}};

TEST_F(matmul_counters, global_requests_and_sectors_equal_the_model_exactly) {
  for (std::size_t n : {std::size_t{77}, std::size_t{1001}, std::size_t{1024}})
    for (const point& p : modelled) {
      const launch_config c{n, p.block, p.tile};
      SCOPED_TRACE(testing::Message()
                   << p.variant << " n=" << n << " block=" << p.block << " T=" << p.tile);
      const auto model = predicted(p.variant, c);
      auto m = measure(p.variant, c);
      EXPECT_EQ(m[ld_requests], static_cast<double>(model.global_ld_requests));
      EXPECT_EQ(m[ld_sectors], static_cast<double>(model.global_ld_sectors));
      EXPECT_EQ(m[st_requests], static_cast<double>(model.global_st_requests));
      EXPECT_EQ(m[st_sectors], static_cast<double>(model.global_st_sectors));
    }
}

TEST_F(matmul_counters, shared_wavefronts_and_conflicts_equal_the_model) {
  const std::size_t n = cudalab::labs::matmul_default_side;
  for (const point& p : modelled) {
    if (std::string(p.variant) == "naive") continue;  // no shared memory
    const launch_config c{n, p.block, p.tile};
    SCOPED_TRACE(testing::Message() << p.variant << " T=" << p.tile);
    const auto model = predicted(p.variant, c);
    auto m = measure(p.variant, c);
    std::cout << p.variant << " T=" << p.tile << ": lds wavefronts " << m[ld_wavefronts]
              << " (model " << model.shared_ld_wavefronts << "), conflicts " << m[ld_conflicts]
              << "; sts wavefronts " << m[st_wavefronts] << " (model " << model.shared_st_wavefronts
              << "), conflicts " << m[st_conflicts] << "\n";
    cudalab::testing::expect_shared_counts_equal(m, model);
  }
}

TEST_F(matmul_counters, store_in_loop_writes_ceil_n_over_t_times_the_stores) {
  for (std::size_t n : {std::size_t{1001}, std::size_t{1024}}) {
    SCOPED_TRACE(testing::Message() << "n=" << n);
    auto once = measure("tiled", launch_config{n, 256, cudalab::labs::fixed_tile});
    auto every_step = measure("tiled_store_in_loop", launch_config{n, 256, 0});
    const double steps = cudalab::matmul::tile_steps(n, cudalab::labs::fixed_tile);
    EXPECT_GT(once[st_requests], 0);
    EXPECT_EQ(every_step[st_requests], steps * once[st_requests]);
    EXPECT_EQ(every_step[st_sectors], steps * once[st_sectors]);
    EXPECT_EQ(every_step[ld_sectors], once[ld_sectors]);
  }
}

// The lesson's headline, measured: the tiled kernel's load requests are the naive kernel's
// over T where T divides n (both at whole warps of 32 columns: naive blocks 32 x 8, T = 32).
TEST_F(matmul_counters, tiled_load_requests_fall_by_the_tile) {
  const std::size_t n = 1024;
  auto naive = measure("naive", launch_config{n, 256, 0});
  auto tiled = measure("tiled", launch_config{n, 256, 32});
  EXPECT_GT(tiled[ld_requests], 0);
  EXPECT_EQ(naive[ld_requests], 32 * tiled[ld_requests]);
}

}  // namespace
