// Every lab's grader from the trace alone: this process injects the tracer into itself before
// CUDA starts and refuses its own counters (CUDALAB_COUNTERS_REFUSE), so that grade_as_exercise
// reads every figure from the trace, as `cudalab check` does where counters are refused. Each
// fixed variant must pass and each naive or buggy one fail. A grader that needs a figure the
// tracer cannot measure (threads per instruction, atomics) must not pass on it: its report
// names the missing counter, and the test says which labs those are.
#include "gpu_test.hpp"

#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/trace/trace_marks.hpp"
#include "cudalab/trace/tracer_support.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#ifndef CUDALAB_TOOL
#error "compile with CUDALAB_TOOL=<the cudalab tool>"
#endif

namespace cudalab::testing {
namespace {

class trace_graders : public ::testing::Test {
 protected:
  void SetUp() override {
    const trace::tracer_install install = trace::tracer_install_here();
    const trace::tracer_availability t =
        trace::check_tracer(install, trace::tracer_environment_here());
    if (!t.ok) GTEST_SKIP() << "no memory tracer: " << t.reason << " (" << t.fix << ")";
    // The machine's Sanitizer library first (the tracer's own dependency, found by its soname).
    if (!dlopen((install.sanitizer_dir + "/libsanitizer-public.so").c_str(),
                RTLD_NOW | RTLD_GLOBAL))
      GTEST_SKIP() << "cannot load libsanitizer-public.so from " << install.sanitizer_dir;
    const std::string output =
        ::testing::TempDir() + "cudalab_graders_trace_" + std::to_string(::getpid()) + ".jsonl";
    std::remove(output.c_str());
    for (const auto& [name, value] :
         trace::traced_child_environment(install, output, ::testing::TempDir()))
      if (name != "LD_LIBRARY_PATH") ::setenv(name.c_str(), value.c_str(), 1);
    ::setenv("CUDALAB_COUNTERS_REFUSE", "ERR_NVGPUCTRPERM", 1);
    // Lab 07's grade runs its variants under compute-sanitizer in a child, which must be a
    // program that runs them (this test binary is not).
    ::setenv("CUDALAB_CHECK_RUNNER", CUDALAB_TOOL, 1);
    // The first CUDA call: the driver loads the tracer now.
    if (auto why = why_no_device(); !why.empty()) GTEST_SKIP() << why;
    ASSERT_TRUE(trace::tracing_this_process())
        << "the driver did not load the tracer from CUDA_INJECTION64_PATH=" << install.library;
  }
};

// A fixed variant may fail from the trace only for want of a figure: every line that fails says
// n/a. A failing line with numbers is a real failure, whatever else the report lacks.
bool fails_only_for_missing_figures(const grade_report& r) {
  bool failed = false;
  for (const grade_line& line : r.lines) {
    if (line.ok) continue;
    if (line.measured || line.text.find("n/a") == std::string::npos) return false;
    failed = true;
  }
  return failed;
}

TEST_F(trace_graders, fixed_variants_pass_and_naive_ones_fail_from_the_trace) {
  std::string partial;
  for (const lab& l : all_labs()) {
    if (!l.exercise) continue;
    for (const variant* v : graded_variants(l)) {
      const grade_outcome o = grade_as_exercise(l, *v, 0);
      std::string report;
      for (const grade_line& line : o.report.lines)
        report += "\n  " + line.text + grade_verdict(line.ok);
      EXPECT_TRUE(o.exercise.counters.from_trace) << l.id << "/" << v->name;
      if (v->role == variant_role::fixed) {
        if (!o.report.passed() && fails_only_for_missing_figures(o.report)) {
          partial += " " + l.id + "/" + v->name;
          continue;
        }
        EXPECT_TRUE(o.report.passed()) << l.id << "/" << v->name << report;
      } else {
        EXPECT_FALSE(o.report.passed()) << l.id << "/" << v->name << report;
      }
    }
  }
  if (!partial.empty())
    std::cout << "graders that need a figure the tracer cannot measure:" << partial << "\n";
}

}  // namespace
}  // namespace cudalab::testing
