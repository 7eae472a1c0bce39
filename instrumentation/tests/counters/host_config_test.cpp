// The real CUPTI host API, offline, for chip GH100: every metric the kit names must configure,
// and the pass counts must match those measured on the H100 (docs/counters.md), so a
// renamed or retired metric fails here, on any machine, before a GPU run.
#include "cudalab/detail/cupti_host_config.hpp"
#include "cudalab/detail/profiler_backend.hpp"
#include "cudalab/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>

namespace cudalab::detail {
namespace {

const std::string chip = "GH100";

std::vector<std::string> cupti_names(const std::vector<std::string>& short_names) {
  std::vector<std::string> out;
  for (const auto& s : short_names)
    for (const auto& cupti : resolve_metrics(s)) out.push_back(cupti);
  return out;
}

std::size_t passes(const std::vector<std::string>& metrics) {
  return cupti_host_config(chip, {}, metrics).passes();
}

TEST(cupti_host_offline, gh100_is_a_supported_chip) {
  const auto chips = cupti_supported_chips();
  EXPECT_NE(std::find(chips.begin(), chips.end(), chip), chips.end());
}

TEST(cupti_host_offline, every_catalogue_metric_configures_alone) {
  for (const auto& m : metric_catalogue()) {
    std::size_t n = 0;
    EXPECT_NO_THROW(n = passes(resolve_metrics(m.short_name)))
        << m.short_name << " = " << m.source();
    // A derived conflict count reads the SASS-level and the data stage's counters, which
    // CUPTI collects in separate passes; tensor_inst's two terms share one.
    const bool two_stages = m.derived() && m.short_name.find("conflicts") != std::string::npos;
    EXPECT_EQ(n, two_stages ? 2u : 1u) << m.source();
  }
}

TEST(cupti_host_offline, every_set_configures_and_builds_an_image) {
  for (const auto& set : metric_set_names()) {
    const std::vector<std::string> metrics = resolve_metrics(set);
    cupti_host_config config(chip, {}, metrics);
    EXPECT_GE(config.passes(), 1u) << set;
    EXPECT_FALSE(config.image().empty()) << set;
    EXPECT_EQ(config.metrics(), metrics);
  }
}

TEST(cupti_host_offline, pass_counts_match_the_h100_measurements) {
  EXPECT_EQ(passes(cupti_names({"ld_requests"})), 1u);
  EXPECT_EQ(passes(cupti_names({"ld_requests", "ld_sectors"})), 2u);
  EXPECT_EQ(passes(resolve_metrics("memory")), 3u);
  EXPECT_EQ(passes(cupti_names({"dram_read_bytes", "dram_write_bytes"})), 1u);
  EXPECT_EQ(passes(cupti_names({"shared_ld_wavefronts", "shared_st_wavefronts"})), 1u);
  EXPECT_EQ(passes(cupti_names({"pipe_ld_wavefronts", "pipe_st_wavefronts", "pipe_ld_conflicts",
                                "pipe_st_conflicts"})),
            1u);
  EXPECT_EQ(passes(cupti_names({"shared_ld_conflicts", "shared_st_conflicts",
                                "shared_ld_wavefronts", "shared_st_wavefronts"})),
            2u);
  EXPECT_EQ(passes(cupti_names({"duration"})), 1u);
  EXPECT_EQ(passes({"sm__throughput.avg.pct_of_peak_sustained_elapsed"}), 8u);
}

TEST(cupti_host_offline, the_all_set_needs_several_passes) {
  // A superset of `memory` cannot need fewer passes than it; kernel replay makes this work.
  EXPECT_GE(passes(resolve_metrics("all")), passes(resolve_metrics("memory")));
}

TEST(cupti_host_offline, an_unknown_name_is_rejected_with_invalid_parameter) {
  for (const char* bad : {"smsp__no_such_counter.sum", "dram__bytes_read"}) {
    try {
      cupti_host_config config(chip, {}, {"dram__bytes_read.sum", bad});
      ADD_FAILURE() << bad << " was accepted";
    } catch (const cupti_error& e) {
      EXPECT_EQ(e.code(), CUPTI_ERROR_INVALID_PARAMETER) << bad;
      EXPECT_EQ(e.call(), "cuptiProfilerHostConfigAddMetrics");
      EXPECT_NE(std::string(e.what()).find("CUPTI_ERROR_INVALID_PARAMETER"), std::string::npos);
    }
  }
}

TEST(cupti_host_offline, an_unknown_chip_is_rejected_by_name) {
  try {
    cupti_host_config config("GX999", {}, {"dram__bytes_read.sum"});
    FAIL() << "chip GX999 was accepted";
  } catch (const cupti_error& e) {
    EXPECT_EQ(e.code(), CUPTI_ERROR_INVALID_CHIP_NAME);
    EXPECT_EQ(e.call(), "cuptiProfilerHostInitialize");
  }
}

TEST(cupti_host_offline, a_configuration_moves_and_stays_usable) {
  cupti_host_config first(chip, {}, resolve_metrics("dram"));
  cupti_host_config second(std::move(first));
  EXPECT_EQ(second.passes(), 1u);
  EXPECT_EQ(second.metrics().size(), 3u);
}

}  // namespace
}  // namespace cudalab::detail
