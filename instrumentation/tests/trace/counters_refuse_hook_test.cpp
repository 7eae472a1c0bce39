// The test hook CUDALAB_COUNTERS_REFUSE makes counters refuse as CUPTI refuses them (no
// permission, another profiler), so that a machine with open counters can show the fallback
// to the tracer. Each case runs in its own process (CTest), so setenv does not leak.
#include "fake_backend.hpp"

#include "cudalab/counters.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace cudalab::testing {
namespace {

counter_availability probe_refused(const char* value) {
  ::setenv("CUDALAB_COUNTERS_REFUSE", value, 1);
  const counter_availability a =
      counter_session::probe(make_fake(std::make_shared<fake_state>()), 0);
  ::unsetenv("CUDALAB_COUNTERS_REFUSE");
  return a;
}

TEST(counters_refuse_hook, err_nvgpuctrperm_refuses_as_missing_permission) {
  const counter_availability a = probe_refused("ERR_NVGPUCTRPERM");
  EXPECT_EQ(a.status, counter_status::no_permission) << a.reason;
  EXPECT_NE(a.reason.find("ERR_NVGPUCTRPERM"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("CUDALAB_COUNTERS_REFUSE"), std::string::npos) << a.reason;
}

TEST(counters_refuse_hook, profiler_attached_refuses_as_another_profiler) {
  EXPECT_EQ(probe_refused("profiler_attached").status, counter_status::profiler_attached);
}

TEST(counters_refuse_hook, an_unknown_value_is_an_error_naming_the_choices) {
  const counter_availability a = probe_refused("sometimes");
  EXPECT_EQ(a.status, counter_status::error);
  EXPECT_NE(a.fix.find("ERR_NVGPUCTRPERM"), std::string::npos) << a.fix;
}

TEST(counters_refuse_hook, unset_leaves_the_counters_alone) {
  ::unsetenv("CUDALAB_COUNTERS_REFUSE");
  EXPECT_TRUE(counter_session::probe(make_fake(std::make_shared<fake_state>()), 0).ok());
}

}  // namespace
}  // namespace cudalab::testing
