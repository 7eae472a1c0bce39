// Lab 01 on the GPU: every variant verifies at random sizes and block sizes; the buggy one is
// caught by its canary; and the hardware counters equal the access model exactly.
#include "indexing_lab.hpp"

#include "gpu_test.hpp"

#include "indexing/indexing_index.cuh"

#include "cudalab/counters.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/variant_runs.hpp"

#include <gtest/gtest.h>

namespace cudalab::labs {
namespace {

using testing::counter_test;

// The lab on a stream; a planted bug's run once at n elements in blocks of 256, and what its
// verify must say.
class indexing_gpu : public testing::stream_test {
 protected:
  verify_result run_at(const char* name, std::size_t n) {
    return testing::run_once_and_verify(*m_lab.find(name), launch_config{n, 256, 0},
                                        m_stream->get());
  }
  static void expect_failure_saying(const verify_result& r, const char* what) {
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.detail.find(what), std::string::npos) << r.detail;
  }
  const lab m_lab = make_lab_01_thread_indexing();
};

TEST_F(indexing_gpu, every_fixed_and_naive_variant_verifies_at_random_sizes_and_blocks) {
  testing::for_random_sizes(
      2026, 3'000'000, {32, 64, 96, 256, 1000, 1024}, 3, std::nullopt,
      [&](std::size_t n, int block) {
        const launch_config c{n, block, 0};
        for (const auto& v : m_lab.variants) {
          if (v.role == variant_role::buggy) continue;
          if (v.name.rfind("matrix_", 0) == 0 && block % 32 != 0) continue;
          const verify_result r = testing::run_once_and_verify(v, c, m_stream->get());
          EXPECT_TRUE(r.ok) << v.name << " n=" << c.size << " block=" << block << ": " << r.detail;
        }
      });
}

TEST_F(indexing_gpu, missing_bounds_guard_is_caught_by_the_canary) {
  expect_failure_saying(run_at("no_bounds_guard", 1000), "canary overwritten: 24 floats");
  // With a size that is a multiple of the block the bug hides: exactly why it is dangerous.
  const verify_result exact = run_at("no_bounds_guard", 1024);
  EXPECT_TRUE(exact.ok) << exact.detail;
}

TEST_F(indexing_gpu, underlaunch_leaves_the_last_n_mod_t_elements_unwritten) {
  expect_failure_saying(run_at("grid_underlaunch", 1000),
                        "232 elements never written, from element 768");
  expect_failure_saying(run_at("grid_underlaunch", 100),
                        "100 elements never written, from element 0");
  // A size that is a multiple of the block hides this bug too.
  const verify_result exact = run_at("grid_underlaunch", 1024);
  EXPECT_TRUE(exact.ok) << exact.detail;
}

// The wrapped threads must be exactly the model's, and stop before any access: the elements
// from 2^31 on stay unwritten and the canary band after the output stays intact.
TEST_F(indexing_gpu, int_index_overflow_records_every_wrap_the_model_predicts_and_writes_nothing) {
  const lab l = make_lab_01_thread_indexing();
  const variant& buggy = *l.find("int_index_overflow");
  cuda_stream stream;
  for (const launch_config c : {launch_config{1000, 256, 0}, launch_config{1'000'003, 96, 0},
                                launch_config{3'000'001, 1000, 0}}) {
    const index_wraps model = predict_index_wraps(c);
    ASSERT_GT(model.threads, 0u);
    const indexing::index_window w =
        indexing::overflow_window(c.size, static_cast<unsigned>(c.block));
    const auto below = static_cast<std::size_t>(indexing::int_index_limit - w.first_element);
    const std::string expected =
        std::to_string(model.threads) + " threads computed a negative int index (lowest " +
        std::to_string(model.lowest_index) + "; model " + std::to_string(model.threads) +
        ", lowest " + std::to_string(model.lowest_index) +
        ") and were stopped before touching memory; " + std::to_string(c.size - below) +
        " elements never written, from element " + std::to_string(below);
    const verify_result r = testing::run_once_and_verify(buggy, c, stream.get());
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.detail, expected) << "n=" << c.size << " block=" << c.block;
  }
}

class indexing_counters : public counter_test {};

// Global requests and sectors are deterministic: the hardware must equal the model exactly.
TEST_F(indexing_counters, every_variant_matches_the_model_exactly) {
  const lab l = make_lab_01_thread_indexing();
  counter_session session(0, resolve_metrics("memory"));
  cuda_stream stream;
  for (const launch_config c : {launch_config{1 << 20, 256, 0}, launch_config{1'000'003, 96, 0}}) {
    for (const auto& v : l.variants) {
      if (v.name.rfind("matrix_", 0) == 0 && c.block % 32 != 0) continue;
      auto prepared = v.prepare(c, stream.get());
      prepared->upload(stream.get());
      prepared->reset(stream.get());
      stream.synchronize();
      const counter_result r = session.collect([&] {
        prepared->launch(stream.get());
        stream.synchronize();
      });
      const auto predicted = model_values(v.predict(c));
      for (const char* m : {"ld_requests", "ld_sectors", "st_requests", "st_sectors"}) {
        const auto it = r.totals.find(find_metric(m)->cupti_name);
        ASSERT_NE(it, r.totals.end()) << m;
        EXPECT_EQ(it->second, predicted.at(m)) << v.name << " n=" << c.size << " " << m;
      }
    }
  }
}

}  // namespace
}  // namespace cudalab::labs
