// Lab 04 against the hardware: the access model must predict the H100's counters.
//
// Global requests and sectors are deterministic for a given binary: every variant with kernels,
// every offset 0..32 and every stride 1..32 must equal the model exactly, and so must the staged
// tile's shared wavefronts and conflicts, read per instruction by the SASS-level counters
// (docs/counters.md). Runs on the release build only (-G changes the counts).
#include "coalescing_lab.hpp"

#include "gpu_test.hpp"

#include "cudalab/counters.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/stream.hpp"

#include "cudalab/report.hpp"
#include "cudalab/testing/shared_counts.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

namespace cudalab::labs {
namespace {

using testing::counter_test;

const char* const global_metrics[] = {"ld_requests", "ld_sectors", "st_requests", "st_sectors"};

std::vector<std::string> metrics() {
  return resolve_metrics(
      "memory,shared_ld_wavefronts,shared_st_wavefronts,shared_ld_conflicts,shared_st_conflicts");
}

class coalescing_counters : public counter_test {
 protected:
  // The counter totals of one launch of `v` at `c`, after upload and reset.
  std::map<std::string, double> measure(const variant& v, const launch_config& c) {
    // Created after SetUp() has checked for a device and counters (it skips otherwise).
    if (!m_stream) m_stream = std::make_unique<cuda_stream>();
    const cuda_stream& stream = *m_stream;
    auto prepared = v.prepare(c, stream.get());
    prepared->upload(stream.get());
    prepared->reset(stream.get());
    stream.synchronize();
    const counter_result r = session().collect([&] {
      prepared->launch(stream.get());
      stream.synchronize();
    });
    return r.totals;
  }
  // Every global metric equal to the model.
  void expect_global_exact(const variant& v, const launch_config& c) {
    const auto measured = measure(v, c);
    const auto predicted = model_values(v.predict(c));
    for (const char* m : global_metrics) {
      const auto it = measured.find(find_metric(m)->cupti_name);
      ASSERT_NE(it, measured.end()) << m;
      EXPECT_EQ(it->second, predicted.at(m))
          << v.name << " n=" << c.size << " block=" << c.block << " param=" << c.param << " " << m;
    }
  }
  counter_session& session() {
    if (!m_session) m_session = std::make_unique<counter_session>(0, metrics());
    return *m_session;
  }

  const lab m_lab = make_lab_04_coalescing();
  std::unique_ptr<cuda_stream> m_stream;
  std::unique_ptr<counter_session> m_session;
};

TEST_F(coalescing_counters, every_variant_matches_the_model_exactly) {
  const launch_config c{std::size_t{1} << 20, 256, 0};
  for (const auto& v : m_lab.variants) {
    if (!v.has_kernels || !v.predict) continue;
    launch_config vc = c;
    if (v.sweep) vc.param = v.sweep->min;
    expect_global_exact(v, vc);
  }
}

TEST_F(coalescing_counters, every_variant_matches_the_model_at_an_odd_size_and_block) {
  // 1,000,003 numbers in blocks of 96: a partial tail warp, and in the staged kernel warps whose
  // staging pass is wholly predicated off (the model counts no request for them).
  const launch_config c{1'000'003, 96, 0};
  for (const auto& v : m_lab.variants) {
    if (!v.has_kernels || !v.predict) continue;
    launch_config vc = c;
    if (v.sweep) vc.param = v.sweep->min + 1;
    expect_global_exact(v, vc);
  }
}

TEST_F(coalescing_counters, every_offset_0_to_32_matches_the_model) {
  const variant& v = *m_lab.find("offset");
  for (long k = 0; k <= max_offset; ++k) expect_global_exact(v, {std::size_t{1} << 20, 256, k});
}

TEST_F(coalescing_counters, every_stride_1_to_32_matches_the_model) {
  const variant& v = *m_lab.find("stride");
  for (long s = 1; s <= max_stride; ++s) expect_global_exact(v, {std::size_t{1} << 20, 256, s});
}

TEST_F(coalescing_counters, aos_float3_still_needs_12_sectors_per_request) {
  // Regression guard: if a compiler ever merged the three component loads into a coalesced
  // pattern, the lab's naive variant would stop teaching anything. Measured, not modelled.
  const auto m = measure(*m_lab.find("aos_float3"), {std::size_t{1} << 20, 256, 0});
  const double ld_req = m.at(find_metric("ld_requests")->cupti_name);
  const double ld_sect = m.at(find_metric("ld_sectors")->cupti_name);
  const double st_req = m.at(find_metric("st_requests")->cupti_name);
  const double st_sect = m.at(find_metric("st_sectors")->cupti_name);
  ASSERT_GT(ld_req, 0);
  ASSERT_GT(st_req, 0);
  EXPECT_EQ(ld_sect / ld_req, 12.0);
  EXPECT_EQ(st_sect / st_req, 12.0);
}

TEST_F(coalescing_counters, staged_tile_wavefronts_and_conflicts_equal_the_model) {
  const variant& v = *m_lab.find("aos_float3_staged");
  for (const launch_config c :
       {launch_config{std::size_t{1} << 20, 256, 0}, launch_config{1'000'003, 96, 0}}) {
    const auto m = measure(v, c);
    const model::access_counts p = v.predict(c);
    SCOPED_TRACE(::testing::Message() << "n=" << c.size);
    cudalab::testing::expect_shared_counts_equal(m, p);
  }
}

}  // namespace
}  // namespace cudalab::labs
