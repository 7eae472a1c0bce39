// The ranges of a real lab run: cudalab::run_lab on two variants of lab 01 (no counters, one
// timed launch), captured through CUPTI. Each variant must sit in its own
// 01-thread-indexing/<variant> range with the phases alloc, h2d, kernel, d2h, verify in that
// order, which is what Nsight Systems shows and `ncu --nvtx-include` filters on.
#include "nvtx_capture.hpp"

#include "gpu_test.hpp"

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using cudalab::testing::nvtx_capture;

class nvtx_lab_run_capture : public cudalab::testing::gpu_test {};

TEST_F(nvtx_lab_run_capture, lab01_run_nests_alloc_h2d_kernel_d2h_verify_under_lab_and_variant) {
  CUDALAB_REQUIRE_NVTX_CAPTURE();
  const std::string lab_id = "01-thread-indexing";
  // all_labs() first: it is the registry find_lab searches (and referencing it here links it).
  ASSERT_FALSE(cudalab::all_labs().empty()) << "no lab is registered";
  const cudalab::lab* lab = cudalab::find_lab(lab_id);
  ASSERT_NE(lab, nullptr) << lab_id << " is not registered";
  const std::vector<std::string> variant_names{"grid_overlaunch", "grid_ceil_div"};

  cudalab::run_request request;
  request.which = lab;
  for (const auto& name : variant_names) {
    const cudalab::variant* v = lab->find(name);
    ASSERT_NE(v, nullptr) << lab_id << " has no variant " << name;
    request.variants.push_back(v);
  }
  request.sizes = {1000};  // not a multiple of the block: a partial tail block
  request.warmup = 0;
  request.repeat = 1;
  request.counters = false;
  const auto rows = cudalab::run_lab(request);
  ASSERT_EQ(rows.size(), variant_names.size());
  for (const auto& row : rows)
    EXPECT_TRUE(row.verification.ok) << row.variant_name << ": " << row.verification.detail;

  const auto ranges = nvtx_capture()->ranges();
  std::vector<std::string> outermost;
  for (const auto& r : ranges) {
    EXPECT_EQ(r.domain, "cudalab") << r.path;
    EXPECT_EQ(r.category, 1u) << r.path << " is not in lab 01's category";
    EXPECT_TRUE(r.registered) << r.path;
    EXPECT_TRUE(r.closed) << r.path;
    if (r.depth == 0) outermost.push_back(r.path);
  }
  // One lab range per variant run, holding only that variant.
  EXPECT_EQ(outermost, std::vector<std::string>(variant_names.size(), lab_id));
  EXPECT_EQ(nvtx_capture()->children("cudalab", lab_id), variant_names);

  const std::vector<std::string> phases{"alloc", "h2d", "kernel", "d2h", "verify"};
  for (const auto& name : variant_names) {
    const std::string variant_path = lab_id + "/" + name;
    const std::vector<std::string> children = nvtx_capture()->children("cudalab", variant_path);
    ASSERT_GE(children.size(), phases.size()) << variant_path << " lacks phase ranges";
    EXPECT_EQ(std::vector<std::string>(children.begin(), children.begin() + phases.size()), phases)
        << "phases of " << variant_path << " out of order";
    // After the phases the runner may only open its counters range (empty with counters off).
    for (std::size_t i = phases.size(); i < children.size(); ++i)
      EXPECT_EQ(children[i], "counters") << "unexpected range under " << variant_path;
    // The phases are leaves: a kernel range holds no further cudalab ranges.
    EXPECT_TRUE(nvtx_capture()->children("cudalab", variant_path + "/kernel").empty());
  }
  EXPECT_TRUE(nvtx_capture()->problems().empty()) << nvtx_capture()->problems().front();
}

}  // namespace
