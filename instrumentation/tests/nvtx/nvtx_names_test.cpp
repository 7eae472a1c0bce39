// The naming half of cudalab::nvtx, which needs no tool attached: each message registers once,
// a lab's category is its number, a variant's range name is "<lab>/<variant>".
#include "cudalab/nvtx.hpp"

#include <gtest/gtest.h>

namespace {

namespace nvtx = cudalab::nvtx;

TEST(nvtx_names, the_same_message_reuses_one_registered_string) {
  const auto& first = nvtx::registered("verify");
  const auto& again = nvtx::registered("verify");
  EXPECT_EQ(&first, &again);
  EXPECT_NE(&first, &nvtx::registered("kernel"));
}

TEST(nvtx_names, lab_category_is_the_lab_number) {
  EXPECT_EQ(nvtx::lab_category("04-coalescing").get_id(), 4u);
  EXPECT_EQ(nvtx::lab_category("01-thread-indexing").get_id(), 1u);
  EXPECT_EQ(nvtx::variant_range_name("04-coalescing", "aos_float3"), "04-coalescing/aos_float3");
}

}  // namespace
