// Lab 08 on the GPU, release build (-G changes the counts): every variant verifies, and its
// deterministic counters (global load and store requests and sectors, shared load
// instructions, shared wavefronts and conflicts through the SASS-level counters;
// docs/counters.md) equal the model exactly, at odd sides (4-byte load path, edge blocks), at a
// multiple of 4 (16-byte path; at 1028 every other row 16 bytes past a sector, where
// cp_async_pipeline copies B 4 bytes at a time), at 1024 (a multiple of every tile side but
// configuration 6's 96) and at 1000 (a multiple of 8 with partial tiles);
// cp_async_pipeline's global reads split between LDG (A) and LDGSTS (B).
#include "regtile_lab.hpp"
#include "regtile_model.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/model_verdict.hpp"
#include "cudalab/runner.hpp"

#include "gpu_test.hpp"

#include <gtest/gtest.h>

#include <iostream>

namespace {

using namespace cudalab;

class regtile_counters : public cudalab::testing::counter_test {};

std::vector<result_row> run_every_variant(std::size_t n, bool counters) {
  static const lab l = labs::make_lab_08_register_tiling();
  run_request r;
  r.which = &l;
  r.sizes = {n};
  r.repeat = 2;
  r.warmup = 1;
  r.counters = counters;
  r.sweep.full = true;  // every warp_tiled configuration
  return run_lab(r);
}

TEST_F(regtile_counters, every_variant_verifies_and_equals_the_model_at_odd_and_aligned_sides) {
  // 1000: a multiple of 8 with partial tiles (the pipeline's predicated copies, regtile_model.hpp).
  for (std::size_t n : {std::size_t{77}, std::size_t{1001}, std::size_t{1028}, std::size_t{1024},
                        std::size_t{1000}}) {
    for (const result_row& row : run_every_variant(n, true)) {
      SCOPED_TRACE(row.variant_name + " config " + std::to_string(row.config.param) + " n " +
                   std::to_string(n));
      EXPECT_TRUE(row.verification.ok) << row.verification.detail;
      if (!row.predicted) continue;
      ASSERT_TRUE(row.counters.available) << row.counters.reason;
      std::size_t compared_shared = 0;
      for (const metric_check& k : compare_with_model(row)) {
        std::cout << row.variant_name << " n=" << n << " " << k.metric << " measured " << k.measured
                  << " predicted " << k.predicted << "\n";
        // Every compared count, shared wavefronts and conflicts included (SASS-level).
        EXPECT_EQ(k.measured, k.predicted) << k.metric;
        compared_shared += k.metric.rfind("shared_", 0) == 0;
      }
      EXPECT_GE(compared_shared, 4u) << "shared wavefronts and conflicts were not compared";
      // Register tiling's own counter is held exactly.
      EXPECT_EQ(row.counters.get("shared_ld_inst").value_or(-1),
                static_cast<double>(row.predicted->shared_ld_instructions));
    }
  }
}

// The pipeline reads A by LDG and B by cp.async: at n = 1024 (every load with an active lane)
// one LDG.128 and one LDGSTS a request each, half the requests each, and three predicated-off LDS
// with each LDGSTS in the shared-load instruction counter (regtile_model.hpp,
// predicated_off_lds_per_ldgsts).
TEST_F(regtile_counters, cp_async_pipeline_reads_a_by_ldg_and_b_by_ldgsts) {
  static const lab l = labs::make_lab_08_register_tiling();
  run_request r;
  r.which = &l;
  r.variants = {l.find("cp_async_pipeline")};
  r.sizes = {1024};
  r.repeat = 1;
  r.warmup = 0;
  r.metrics = resolve_metrics("ld_requests,ldgsts_inst,global_ld_inst,shared_ld_inst");
  const std::vector<result_row> rows = run_lab(r);
  ASSERT_EQ(rows.size(), 1u);
  const result_row& row = rows[0];
  EXPECT_TRUE(row.verification.ok) << row.verification.detail;
  ASSERT_TRUE(row.counters.available) << row.counters.reason;
  ASSERT_TRUE(row.predicted);
  const auto requests = static_cast<double>(row.predicted->global_ld_requests);
  EXPECT_EQ(row.counters.get("ld_requests").value_or(-1), requests);
  EXPECT_EQ(row.counters.get("global_ld_inst").value_or(-1), requests / 2);
  EXPECT_EQ(row.counters.get("ldgsts_inst").value_or(-1), requests / 2);
  EXPECT_EQ(row.counters.get("shared_ld_inst").value_or(-1),
            static_cast<double>(row.predicted->shared_ld_instructions));
}

// 4097 takes the pipeline's general kernel and 4096 its kernel for sides that are multiples of
// 8; cp_async_tuned runs whichever configuration its table gives the size.
TEST_F(regtile_counters, large_sides_verify_by_sample_and_report_resources) {
  for (std::size_t n : {std::size_t{4097}, std::size_t{4096}}) {
    for (const result_row& row : run_every_variant(n, false)) {
      SCOPED_TRACE(row.variant_name + " config " + std::to_string(row.config.param) + " n " +
                   std::to_string(n));
      EXPECT_TRUE(row.verification.ok) << row.verification.detail;
      EXPECT_NE(row.verification.detail.find("sampled"), std::string::npos);
      if (row.variant_name == "cublas") continue;
      ASSERT_FALSE(row.resources.empty());
      const kernel_resources& k = row.resources.front();
      EXPECT_GT(k.registers, 0);
      // Configuration 6 of the pipeline, in either form, trades a few spilled registers for a
      // third block an SM (min_blocks_per_sm in matmul_cp_async_pipeline.cu); every other
      // kernel spills none. The kernel's name carries the configuration it really ran.
      const bool spills_by_design = k.kernel.rfind("cp_async_pipeline_kernel (config 6", 0) == 0;
      if (spills_by_design)
        EXPECT_GT(k.local_bytes, 0u) << k.kernel << ": the lesson says configuration 6 spills";
      else
        EXPECT_EQ(k.local_bytes, 0u) << k.kernel << " spills";
      EXPECT_GT(k.blocks_per_sm, 0);
    }
  }
}

}  // namespace
