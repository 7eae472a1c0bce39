// Lab 02's registration and host data on the CPU: the variants and their roles, what each is
// timed with, the exercise's grading setup, the references and the bus's peak.
#include "memory_bus.hpp"
#include "memory_data.hpp"
#include "memory_lab.hpp"
#include "memory_variants.hpp"

#include "memory/memory_index.cuh"
#include "memory/memory_kernels.cuh"

#include "cudalab/check.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/registration_checks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

// This test binary registers lab 02 alone.
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_02_memory_spaces)

namespace cudalab::labs {
namespace {

namespace mem = cudalab::memory;

TEST(memory_lab, registers_each_variant_with_its_role) {
  const lab l = make_lab_02_memory_spaces();
  testing::expect_variant_roles(l, {{variant_role::naive,
                                     {"coeffs_global", "constant_divergent", "local_spill",
                                      "pageable_h2d", "pageable_d2h", "one_stream"}},
                                    {variant_role::fixed,
                                     {"coeffs_constant", "coeffs_shared", "registers", "pinned_h2d",
                                      "pinned_d2h", "overlap_streams", "event_timed"}},
                                    {variant_role::buggy, {"host_timer_no_sync"}},
                                    {variant_role::baseline, {"alloc_free"}},
                                    {variant_role::exercise, {"exercise"}}});
  EXPECT_EQ(l.default_size % 32, 0u);
  EXPECT_NE(l.sanitize_size % 32, 0u);
}

// The buggy timer differs from its twin only in the clock: the host's, around a launch that
// does not wait. Allocation is host work, timed by the host.
TEST(memory_lab, only_the_buggy_timer_and_the_allocation_use_the_host_clock) {
  const lab l = make_lab_02_memory_spaces();
  for (const auto& v : l.variants)
    EXPECT_EQ(v.timed_on_host, v.name == "host_timer_no_sync" || v.name == "alloc_free") << v.name;
  EXPECT_TRUE(l.find("host_timer_no_sync")->has_kernels);
  EXPECT_TRUE(l.find("host_timer_no_sync")->predict);
}

TEST(memory_lab, copies_and_pipelines_launch_nothing_the_counters_read) {
  const lab l = make_lab_02_memory_spaces();
  for (const char* name : {"pageable_h2d", "pinned_h2d", "pageable_d2h", "pinned_d2h", "one_stream",
                           "overlap_streams", "alloc_free"}) {
    EXPECT_FALSE(l.find(name)->has_kernels) << name;
    EXPECT_FALSE(l.find(name)->predict) << name;
  }
  const launch_config c{1000, 256, 0};
  EXPECT_EQ(l.find("pinned_h2d")->ideal(c).bytes, 4000.0);
  EXPECT_EQ(l.find("overlap_streams")->ideal(c).bytes, 8000.0);
}

TEST(memory_lab, every_kernel_variant_but_the_exercise_predicts) {
  const lab l = make_lab_02_memory_spaces();
  for (const char* name : {"coeffs_global", "coeffs_constant", "constant_divergent",
                           "coeffs_shared", "local_spill", "registers", "event_timed"})
    EXPECT_TRUE(l.find(name)->predict) << name;
  EXPECT_FALSE(l.find("exercise")->predict);
}

TEST(memory_lab, the_exercise_is_graded_against_the_spill_pair_with_local_counters) {
  const lab l = make_lab_02_memory_spaces();
  ASSERT_TRUE(l.exercise);
  EXPECT_EQ(l.exercise->graded_variants, (std::vector<std::string>{"local_spill", "registers"}));
  EXPECT_EQ(l.exercise->size, memory_default_size);
  EXPECT_TRUE(l.exercise->needs_counters);
  const auto m = resolve_metric_names(l.default_metrics);
  for (const char* local : {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                            "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"})
    EXPECT_NE(std::find(m.begin(), m.end(), local), m.end()) << local;
}

TEST(memory_lab, coeffs_shared_refuses_blocks_smaller_than_the_coefficients) {
  const lab l = make_lab_02_memory_spaces();
  EXPECT_FALSE(l.find("coeffs_shared")->blocks.violation(8).empty());
  EXPECT_TRUE(l.find("coeffs_shared")->blocks.violation(16).empty());
}

TEST(memory_lab, launch_shape_checks_refuse_bad_input) {
  EXPECT_THROW(mem::one_thread_each(0, 256), usage_error);
  EXPECT_THROW(mem::one_thread_each(100, 0), usage_error);
  EXPECT_THROW(mem::one_thread_each(100, 2048), usage_error);
  EXPECT_EQ(mem::one_thread_each(1000, 256).grid, 4u);
}

// The spill sum through the array, as local_spill computes it, equals the registers form the
// reference uses: the same terms, regrouped.
TEST(memory_data, spill_reference_equals_the_array_walk) {
  for (const float x : {-1.0f, -0.25f, 0.0f, 0.5f, 0.999f}) {
    double v[mem::spill_words] = {};
    for (unsigned k = 0; k < mem::spill_words; ++k)
      v[mem::spill_slot(k, spill_step)] = mem::spill_value(x, k);
    double through_array = 0;
    for (unsigned j = 0; j < mem::spill_words; ++j) through_array += (j + 1) * v[j];
    EXPECT_NEAR(memory_data::reference(memory_output::spill_sum, {}, x, 0), through_array,
                1e-9 * std::abs(through_array) + 1e-12);
  }
}

TEST(memory_data, divergent_polynomial_uses_the_elements_set) {
  const std::vector<float> table = memory_data::coefficient_table();
  // x = 1: the sum of the set's coefficients.
  for (const std::size_t i : {0ul, 1ul, 33ul}) {
    double sum = 0;
    for (unsigned k = 0; k < mem::poly_terms; ++k)
      sum += table[mem::coefficient_index(mem::coefficient_set(i, true), k)];
    EXPECT_NEAR(memory_data::reference(memory_output::divergent_polynomial, table, 1.0f, i), sum,
                1e-9);
  }
  EXPECT_NE(memory_data::reference(memory_output::divergent_polynomial, table, 1.0f, 1),
            memory_data::reference(memory_output::polynomial, table, 1.0f, 1));
}

TEST(memory_data, verify_catches_a_poisoned_output) {
  const std::vector<float> table = memory_data::coefficient_table();
  const std::vector<float> x = memory_data::make_x(100);
  std::vector<float> got(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    got[i] = static_cast<float>(memory_data::reference(memory_output::polynomial, table, x[i], i));
  EXPECT_TRUE(memory_data::verify(memory_output::polynomial, table, x, got).ok);
  got[57] = std::nanf("");
  EXPECT_FALSE(memory_data::verify(memory_output::polynomial, table, x, got).ok);
}

// PCIe 5 x16: 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s each way; PCIe 2 x8 loses 20% to
// 8b/10b: 5 x 8 x 0.8 / 8 = 4 GB/s.
TEST(memory_bus, peak_follows_generation_width_and_encoding) {
  const auto gen5 = parse_pcie_link("32.0 GT/s PCIe", "16");
  ASSERT_TRUE(gen5);
  EXPECT_EQ(gen5->generation(), 5);
  EXPECT_NEAR(gen5->peak_gbps(), 32.0 * 16 * 128 / 130 / 8, 1e-9);
  const auto gen2 = parse_pcie_link("5 GT/s", "8");
  ASSERT_TRUE(gen2);
  EXPECT_EQ(gen2->generation(), 2);
  EXPECT_NEAR(gen2->peak_gbps(), 4.0, 1e-9);
  EXPECT_FALSE(parse_pcie_link("Unknown", "16"));
  EXPECT_FALSE(parse_pcie_link("16.0 GT/s PCIe", "x"));
}

}  // namespace
}  // namespace cudalab::labs
