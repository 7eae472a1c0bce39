// Lab 05 host side: inputs, the CPU reference, the verification rules, and the lab's
// registration (every variant named, predicted where it has a model, bad blocks rejected).
#include "reduction_data.hpp"
#include "reduction_variants.hpp"

#include "reduction/reduction_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/metrics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>

namespace cudalab::labs {
lab make_lab_05_reduction();
}

namespace {

namespace data = cudalab::labs::reduction_data;
using cudalab::launch_config;

TEST(reduction_data, floats_are_in_half_open_0_5_to_1_5_never_zero_and_repeatable) {
  const auto a = data::make_floats(100000), b = data::make_floats(100000);
  EXPECT_EQ(a, b);
  for (float x : a) {
    ASSERT_GE(x, 0.5f);
    ASSERT_LT(x, 1.5f);
  }
  EXPECT_NE(a, data::make_floats(100000, 0x06));
}

TEST(reduction_data, ints_are_1_to_7_so_2_to_the_28_of_them_fit_in_an_int) {
  const auto v = data::make_ints(100000);
  std::set<int> seen(v.begin(), v.end());
  EXPECT_EQ(seen, (std::set<int>{1, 2, 3, 4, 5, 6, 7}));
  EXPECT_LT(7.0 * static_cast<double>(cudalab::reduction::max_elements), 2147483647.0);
}

// Each float is 0.5 + k * 2^-24: the exact sum is 0.5 n + 2^-24 sum(k), an integer sum.
TEST(reduction_data, double_reference_equals_the_exact_sum) {
  const std::size_t n = 1 << 20;
  const auto v = data::make_floats(n);
  std::uint64_t k_sum = 0;
  for (float x : v) k_sum += static_cast<std::uint64_t>((static_cast<double>(x) - 0.5) * 0x1p24);
  const double exact = 0.5 * n + static_cast<double>(k_sum) * 0x1p-24;
  EXPECT_EQ(data::reference_sum(v), exact);
  EXPECT_EQ(data::reference_sum(v, 10, 3), static_cast<double>(v[10]) + v[11] + v[12]);
}

std::vector<float> float_partials(const std::vector<float>& in, std::size_t per_block) {
  std::vector<float> p((in.size() + per_block - 1) / per_block, 0.0f);
  for (std::size_t i = 0; i < in.size(); ++i) p[i / per_block] += in[i];  // float, sequential
  return p;
}

TEST(reduction_data, per_block_check_passes_float_sums_and_catches_one_lost_element) {
  const auto in = data::make_floats(100003);
  auto p = float_partials(in, 1024);
  EXPECT_TRUE(data::verify_partials(in, p, 1024).ok) << data::verify_partials(in, p, 1024).detail;
  p[7] -= in[7 * 1024 + 5];  // block 7 forgot one element
  const auto r = data::verify_partials(in, p, 1024);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.detail.find("block 7"), std::string::npos) << r.detail;
}

TEST(reduction_data, an_unwritten_partial_fails_the_check) {
  const auto in = data::make_floats(5000);
  auto p = float_partials(in, 256);
  p.back() = std::nanf("");
  EXPECT_FALSE(data::verify_partials(in, p, 256).ok);
}

TEST(reduction_data, total_tolerance_is_1e_5_times_log2_n) {
  EXPECT_DOUBLE_EQ(data::total_rel_tol(1 << 20), 2e-4);
  EXPECT_DOUBLE_EQ(data::total_rel_tol(1), 1e-5);
  const auto in = data::make_floats(1 << 16);
  const double exact = data::reference_sum(in);
  EXPECT_TRUE(data::verify_total(in, exact * (1 + 1e-4)).ok);
  EXPECT_FALSE(data::verify_total(in, exact * (1 + 2e-4)).ok);
  EXPECT_FALSE(data::verify_total(in, std::nan("")).ok);
}

TEST(reduction_data, integers_are_checked_exactly) {
  const auto in = data::make_ints(70001);
  const std::int64_t sum = data::reference_sum(in);
  EXPECT_TRUE(data::verify_total(in, sum).ok);
  EXPECT_FALSE(data::verify_total(in, sum + 1).ok);
  std::vector<int> p((in.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < in.size(); ++i) p[i / 64] += in[i];
  EXPECT_TRUE(data::verify_partials(in, p, 64).ok);
  p[3] += 1;
  EXPECT_FALSE(data::verify_partials(in, p, 64).ok);
}

TEST(reduction_lab, registers_every_variant_with_a_prediction_where_a_model_exists) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  const std::set<std::string> expected{"interleaved_divergent",
                                       "interleaved_strided",
                                       "sequential",
                                       "sequential_two_pass",
                                       "first_add_during_load",
                                       "warp_shuffle",
                                       "grid_stride",
                                       "grid_stride_int",
                                       "cub",
                                       "cpu_reference",
                                       "exercise"};
  std::set<std::string> names;
  for (const auto& v : l.variants) {
    names.insert(v.name);
    const bool modelled = v.name != "cub" && v.name != "cpu_reference" && v.name != "exercise";
    EXPECT_EQ(static_cast<bool>(v.predict), modelled) << v.name;
    EXPECT_EQ(v.blocks.max, 1024) << v.name;
    if (modelled) {
      for (int block : {32, 64, 128, 256, 512, 1024})
        EXPECT_GT(v.predict(launch_config{1000003, block, 0}).global_ld_sectors, 0u) << v.name;
      EXPECT_EQ(v.ideal(launch_config{1 << 20, 256, 0}).bytes, 4.0 * (1 << 20)) << v.name;
    }
  }
  EXPECT_EQ(names, expected);
  ASSERT_TRUE(l.exercise.has_value());
  EXPECT_EQ(l.exercise->reference_variants, std::vector<std::string>{"sequential"});
  const auto collected = cudalab::resolve_metric_names(l.default_metrics);
  EXPECT_NE(std::find(collected.begin(), collected.end(),
                      cudalab::find_metric("thread_efficiency")->cupti_name),
            collected.end());
}

// The sweep tool passes --block lists: every power of two 32..1024 is accepted, anything else
// fails with a usage_error before any device memory is touched.
TEST(reduction_lab, prepare_rejects_a_block_that_is_not_a_power_of_two_from_32_to_1024) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  for (const auto& v : l.variants) {
    if (v.name == "cub" || v.name == "cpu_reference") continue;
    for (int block : {16, 48, 100, 1000}) {
      try {
        v.prepare(launch_config{4096, block, 0}, nullptr);
        ADD_FAILURE() << v.name << " accepted --block " << block;
      } catch (const cudalab::usage_error& e) {
        EXPECT_NE(std::string(e.what()).find("power of two"), std::string::npos) << e.what();
      }
    }
    if (v.predict) {
      EXPECT_THROW(v.predict(launch_config{4096, 48, 0}), cudalab::usage_error) << v.name;
    }
  }
}

TEST(reduction_lab, launchers_reject_a_bad_block_or_size_before_touching_the_device) {
  namespace red = cudalab::reduction;
  EXPECT_THROW(red::launch_sequential<float>(nullptr, nullptr, 1000, 48, nullptr),
               cudalab::usage_error);
  EXPECT_THROW(red::launch_grid_stride<int>(nullptr, nullptr, 1000, 2048, nullptr),
               cudalab::usage_error);
  EXPECT_THROW(red::launch_interleaved_divergent<float>(nullptr, nullptr, 0, 256, nullptr),
               cudalab::usage_error);
  EXPECT_THROW(red::launch_finish<float>(nullptr, nullptr, red::max_elements + 1, nullptr),
               cudalab::usage_error);
}

TEST(reduction_lab, predicting_the_largest_size_is_quick_enough_for_a_sweep) {
  const cudalab::lab l = cudalab::labs::make_lab_05_reduction();
  for (const auto& v : l.variants) {
    if (!v.predict) continue;
    for (int block : {32, 1024}) {
      // Every element read once (the two-pass variant also reads its partial sums).
      EXPECT_GE(v.predict(launch_config{std::size_t{1} << 28, block, 0}).global_ld_bytes,
                4ull << 28)
          << v.name;
    }
  }
}

}  // namespace
