// Lab 04 on the CPU: the registration (every variant complete, the sweeps and the exercise as
// the tool expects them) and the memory each variant asks for.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"
#include "cudalab/runner.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace cudalab::labs {
namespace {

TEST(coalescing_lab, registers_every_variant_with_its_role_and_model) {
  const lab l = make_lab_04_coalescing();
  EXPECT_EQ(l.id, "04-coalescing");
  EXPECT_EQ(l.readme, "labs/04-coalescing/README.md");
  const std::set<std::string> expected{
      "aos_float3",    "aos_float3_staged", "aos_float4",    "soa",    "particles_aos",
      "particles_soa", "char_per_thread",   "uchar4_packed", "offset", "stride",
      "memcpy_d2d",    "exercise"};
  std::set<std::string> names;
  for (const auto& v : l.variants) {
    names.insert(v.name);
    EXPECT_TRUE(v.prepare) << v.name;
    EXPECT_TRUE(v.ideal) << v.name;
    EXPECT_TRUE(v.device_bytes) << v.name;
    EXPECT_FALSE(v.lesson.empty()) << v.name;
    const bool modelled = v.name != "memcpy_d2d" && v.name != "exercise";
    EXPECT_EQ(static_cast<bool>(v.predict), modelled) << v.name;
    EXPECT_EQ(v.has_kernels, v.name != "memcpy_d2d") << v.name;
  }
  EXPECT_EQ(names, expected);
  EXPECT_EQ(l.find("aos_float3")->role, variant_role::naive);
  EXPECT_EQ(l.find("aos_float3_staged")->role, variant_role::fixed);
  EXPECT_EQ(l.find("memcpy_d2d")->role, variant_role::baseline);
  EXPECT_EQ(l.find("exercise")->role, variant_role::exercise);
}

TEST(coalescing_lab, aos_float4_counts_the_bytes_its_padding_moves_and_its_payload_apart) {
  const lab l = make_lab_04_coalescing();
  const launch_config c{1000, 256, 0};
  const work_counts float4 = l.find("aos_float4")->ideal(c);
  EXPECT_EQ(float4.bytes, 48.0 * 1000);      // 16-byte numbers: read, write, copy out
  EXPECT_EQ(float4.payload(), 36.0 * 1000);  // the 12 bytes of x, y, z
  for (const char* name : {"aos_float3", "aos_float3_staged", "soa"}) {
    const work_counts w = l.find(name)->ideal(c);
    EXPECT_EQ(w.bytes, 36.0 * 1000) << name;
    EXPECT_EQ(w.payload(), w.bytes) << name;
  }
}

TEST(coalescing_lab, sweeps_cover_offset_0_to_32_and_stride_1_to_32_in_full) {
  const lab l = make_lab_04_coalescing();
  const auto& offset = l.find("offset")->sweep;
  ASSERT_TRUE(offset);
  EXPECT_EQ(offset->name, "offset");
  EXPECT_EQ(offset->min, 0);
  EXPECT_EQ(offset->max, 32);
  const auto& stride = l.find("stride")->sweep;
  ASSERT_TRUE(stride);
  EXPECT_EQ(stride->min, 1);
  EXPECT_EQ(stride->max, 32);
  sweep_request full;
  full.full = true;
  EXPECT_EQ(sweep_values(*l.find("offset"), full).size(), 33u);
  EXPECT_EQ(sweep_values(*l.find("stride"), full).size(), 32u);
  EXPECT_EQ(sweep_values(*l.find("stride"), full).front(), 1);
}

TEST(coalescing_lab, the_default_run_shows_a_few_sweep_points_inside_the_ranges) {
  // The default table stays about 20 rows: a few telling points of each sweep.
  const lab l = make_lab_04_coalescing();
  std::size_t rows = 0;
  for (const auto& v : l.variants) {
    if (v.role == variant_role::exercise) continue;
    const auto values = sweep_values(v, sweep_request{});
    rows += values.size();
    if (v.sweep)
      for (long p : values) {
        EXPECT_GE(p, v.sweep->min) << v.name;
        EXPECT_LE(p, v.sweep->max) << v.name;
      }
  }
  EXPECT_LE(rows, 20u);
}

TEST(coalescing_lab, a_bare_sweep_list_goes_to_each_sweep_within_its_range) {
  // `--sweep 0..32`: offset runs 0..32 and stride 1..32 (0 is outside its range).
  const lab l = make_lab_04_coalescing();
  sweep_request bare;
  for (long p = 0; p <= 32; ++p) bare.values[""].push_back(p);
  std::vector<long> dropped;
  EXPECT_EQ(sweep_values(*l.find("offset"), bare, &dropped).size(), 33u);
  EXPECT_TRUE(dropped.empty());
  EXPECT_EQ(sweep_values(*l.find("stride"), bare, &dropped).size(), 32u);
  EXPECT_EQ(dropped, std::vector<long>{0});
  sweep_request named;
  named.values["stride"] = {0};
  EXPECT_THROW(sweep_values(*l.find("stride"), named), usage_error);
}

TEST(coalescing_lab, float3_variants_do_the_same_ideal_work) {
  const lab l = make_lab_04_coalescing();
  const launch_config c{1000, 256, 0};
  for (const char* name : {"aos_float3", "aos_float3_staged", "aos_float4", "soa", "exercise"})
    EXPECT_EQ(l.find(name)->ideal(c).payload(), 36000.0) << name;
  EXPECT_EQ(l.find("memcpy_d2d")->ideal(c).bytes, 24000.0);
  EXPECT_EQ(l.find("char_per_thread")->ideal(c).bytes, 2000.0);
  EXPECT_EQ(l.find("uchar4_packed")->ideal(c).bytes, 2000.0);
  EXPECT_EQ(l.find("offset")->ideal(launch_config{1000, 256, 7}).bytes, 8000.0);
  EXPECT_EQ(l.find("stride")->ideal(launch_config{1000, 256, 7}).bytes, 8000.0);
}

TEST(coalescing_lab, device_bytes_cover_every_allocation) {
  const lab l = make_lab_04_coalescing();
  const std::size_t n = 1001;
  // data, its pristine copy and out, 12 bytes a number (16 for float4).
  EXPECT_EQ(l.find("aos_float3")->device_bytes({n, 256, 0}), 36 * n);
  EXPECT_EQ(l.find("aos_float3_staged")->device_bytes({n, 256, 0}), 36 * n);
  EXPECT_EQ(l.find("aos_float4")->device_bytes({n, 256, 0}), 48 * n);
  EXPECT_EQ(l.find("soa")->device_bytes({n, 256, 0}), 36 * n);
  EXPECT_EQ(l.find("char_per_thread")->device_bytes({n, 256, 0}), 2 * 1004u);
  EXPECT_EQ(l.find("offset")->device_bytes({n, 256, 5}), 2 * 4 * (n + 32));
  // The gather's input is n * stride floats: 2^24 numbers at stride 32 need 2 GiB of it.
  EXPECT_EQ(l.find("stride")->device_bytes({n, 256, 32}), 4 * n * 33);
  EXPECT_EQ(l.find("stride")->device_bytes({std::size_t{1} << 24, 256, 32}),
            (std::size_t{2} << 30) + (std::size_t{64} << 20));
}

TEST(coalescing_lab, exercise_is_graded_against_the_fixed_float3_variants) {
  const lab l = make_lab_04_coalescing();
  ASSERT_TRUE(l.exercise);
  EXPECT_EQ(l.exercise->variant, "exercise");
  EXPECT_EQ(l.exercise->file, "labs/04-coalescing/exercise.cu");
  ASSERT_EQ(l.exercise->reference_variants.size(), 3u);
  for (const auto& name : l.exercise->reference_variants) {
    const variant* v = l.find(name);
    ASSERT_NE(v, nullptr) << name;
    EXPECT_EQ(v->role, variant_role::fixed) << name;
  }
  EXPECT_GT(l.exercise->size, 0u);
  EXPECT_TRUE(l.exercise->grade);
}

TEST(coalescing_lab, predictions_work_at_the_default_size) {
  // What `cudalab run 04-coalescing` prints without a GPU: every modelled variant at 2^24.
  const lab l = make_lab_04_coalescing();
  const launch_config c{l.default_size, 256, 1};
  for (const auto& v : l.variants) {
    if (!v.predict) continue;
    const auto counts = v.predict(c);
    EXPECT_GT(counts.global_ld_requests, 0u) << v.name;
    EXPECT_GT(counts.global_st_sectors, 0u) << v.name;
  }
}

}  // namespace
}  // namespace cudalab::labs
