// When `run --trace` refuses, it says why in one line with the fix: a build without the
// Compute Sanitizer API, a machine without libsanitizer-public.so, compute-sanitizer (or another
// injected tool) already attached, or a process that is itself traced.
#include "cudalab/trace/tracer_support.hpp"

#include <gtest/gtest.h>

#include <map>

namespace cudalab::trace {
namespace {

tracer_install built() {
  return {"/b/instrumentation/tracer/libcudalab_tracer.so",
          "/b/instrumentation/tracer/cudalab_tracer_patches.fatbin",
          "/usr/local/cuda/compute-sanitizer",
          "/usr/local/cuda/bin/nvdisasm",
          "/b/instrumentation/sass_lines/libcudalab_sass_lines.so",
          "/b/instrumentation/kernel_times/libcudalab_kernel_times.so",
          "/b/instrumentation/launch_counters/libcudalab_launch_counters.so"};
}

void expect_one_line_refusal(const tracer_availability& a, const std::string& reason_part,
                             const std::string& fix_part) {
  EXPECT_FALSE(a.ok);
  EXPECT_NE(a.reason.find(reason_part), std::string::npos) << a.reason;
  EXPECT_NE(a.fix.find(fix_part), std::string::npos) << a.fix;
  EXPECT_EQ(a.reason.find('\n'), std::string::npos);
  EXPECT_EQ(a.fix.find('\n'), std::string::npos);
}

TEST(tracer_support, a_build_with_the_tracer_on_a_machine_with_the_api_can_trace) {
  const tracer_availability a = check_tracer(built(), {});
  EXPECT_TRUE(a.ok) << a.reason;
}

TEST(tracer_support, a_build_without_the_sanitizer_api_refuses_and_names_setup) {
  tracer_install none = built();
  none.library.clear();
  expect_one_line_refusal(check_tracer(none, {}), "no memory tracer", "scripts/setup.sh");
}

TEST(tracer_support, a_machine_without_libsanitizer_refuses) {
  tracer_install install = built();
  install.sanitizer_dir.clear();
  expect_one_line_refusal(check_tracer(install, {}), "libsanitizer-public.so", "rebuild");
}

TEST(tracer_support, compute_sanitizer_attached_refuses) {
  tracer_environment_view under;
  under.cuda_injection = "/usr/local/cuda/compute-sanitizer/libsanitizer-collection.so";
  expect_one_line_refusal(check_tracer(built(), under), "compute-sanitizer",
                          "outside compute-sanitizer");
  tracer_environment_view preloaded;
  preloaded.ld_preload = "/usr/local/cuda/compute-sanitizer/libTreeLauncherTargetInjection.so";
  expect_one_line_refusal(check_tracer(built(), preloaded), "compute-sanitizer",
                          "outside compute-sanitizer");
}

TEST(tracer_support, another_injected_tool_refuses) {
  tracer_environment_view other;
  other.cuda_injection = "/opt/tool/libinject.so";
  expect_one_line_refusal(check_tracer(built(), other), "another CUDA tool",
                          "CUDA_INJECTION64_PATH");
}

TEST(tracer_support, a_traced_process_does_not_trace_again) {
  tracer_environment_view traced;
  traced.trace_output = "/tmp/x/trace.jsonl";
  expect_one_line_refusal(check_tracer(built(), traced), "already traced", "CUDALAB_TRACE_OUTPUT");
}

TEST(tracer_support, the_child_environment_injects_the_tracer_and_prefers_the_machines_api) {
  const auto env = traced_child_environment(built(), "/tmp/w/trace.jsonl", "/tmp/w");
  const std::map<std::string, std::string> m(env.begin(), env.end());
  EXPECT_EQ(m.at("CUDA_INJECTION64_PATH"), built().library);
  EXPECT_EQ(m.at("CUDALAB_TRACE_PATCHES"), built().patches);
  EXPECT_EQ(m.at("CUDALAB_TRACE_OUTPUT"), "/tmp/w/trace.jsonl");
  EXPECT_EQ(m.at("CUDALAB_TRACE_CUBINS"), "/tmp/w");
  EXPECT_EQ(m.at("LD_LIBRARY_PATH").rfind(built().sanitizer_dir, 0), 0u) << m.at("LD_LIBRARY_PATH");
}

TEST(tracer_support, a_hardware_lines_child_measures_one_function_of_one_point) {
  const auto env =
      sass_lines_child_environment(built(), "/tmp/w/h.jsonl", "/tmp/w/h", "aos|1024|256|0", 2);
  const std::map<std::string, std::string> m(env.begin(), env.end());
  EXPECT_EQ(m.at("CUDA_INJECTION64_PATH"), built().sass_lines_library);
  EXPECT_EQ(m.at("CUDALAB_TRACE_OUTPUT"), "/tmp/w/h.jsonl");
  EXPECT_EQ(m.at("CUDALAB_TRACE_CUBINS"), "/tmp/w/h");
  EXPECT_EQ(m.at("CUDALAB_SASS_POINT"), "aos|1024|256|0");
  EXPECT_EQ(m.at("CUDALAB_SASS_FUNCTION"), "2");
  for (const auto& [name, value] : env) EXPECT_TRUE(injects_the_tracer(name)) << name;
}

// A child that must run untraced (lab 07's compute-sanitizer runs) drops exactly the variables
// that inject the tracer: every one traced_child_environment sets, but the library path.
TEST(tracer_support, the_variables_that_inject_the_tracer_are_those_the_child_environment_sets) {
  for (const auto& [name, value] : traced_child_environment(built(), "/tmp/w/t.jsonl", "/tmp/w"))
    EXPECT_EQ(injects_the_tracer(name), name != "LD_LIBRARY_PATH") << name;
  EXPECT_FALSE(injects_the_tracer("PATH"));
  EXPECT_FALSE(injects_the_tracer("CUDA_VISIBLE_DEVICES"));
}

}  // namespace
}  // namespace cudalab::trace
