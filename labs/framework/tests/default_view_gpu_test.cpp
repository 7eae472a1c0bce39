// Every lab's default run on the GPU, counters included, prints a table that fits 120 columns
// and shows no disagreement with the access model. The tables go to stdout, so the test log
// holds them as measured.
#include "gpu_test.hpp"

#include "cudalab/copy_roof.hpp"
#include "cudalab/device.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/report.hpp"
#include "cudalab/runner.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

namespace cudalab {
namespace {

class default_view_gpu : public testing::gpu_test {};

TEST_F(default_view_gpu, every_lab_default_run_fits_120_columns_and_agrees_with_the_model) {
  const bool counters = testing::why_no_counters().empty();
  if (!counters) std::cout << "no counters: " << testing::why_no_counters() << "\n";
  const device_facts facts = query_device(0);
  for (const lab& l : all_labs()) {
    run_request request;
    request.which = &l;
    request.repeat = 5;
    request.counters = counters;
    const auto rows = run_lab(request);
    report_context context;
    context.device = facts.name;
    context.roof = measured_copy_roof(0);
    context.which = &l;
    std::ostringstream out;
    write_report(out, rows, report_options{}, context);
    std::cout << "cudalab run " << l.id << "\n" << out.str() << "\n";
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
      EXPECT_LE(line.size(), 120u) << l.id << ":\n" << line;
      EXPECT_EQ(line.find("MISMATCH"), std::string::npos) << l.id << ":\n" << line;
    }
    for (const auto& row : rows) {
      if (row.role != variant_role::buggy) {
        EXPECT_TRUE(row.verification.ok)
            << l.id << "/" << row.variant_name << ": " << row.verification.detail;
      }
    }
  }
}

}  // namespace
}  // namespace cudalab
