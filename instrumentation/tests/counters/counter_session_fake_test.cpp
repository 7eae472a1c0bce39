// counter_session over a fake backend: every way counters can be unavailable gives its own
// one-line reason and fix, permission is recognised at whichever call CUPTI refuses, nothing
// stays initialized or enabled, and the collect loop, dropped ranges and totals behave.
#include "fake_backend.hpp"
#include "unknown_metric_check.hpp"

#include "cudalab/counters.hpp"

#include <gtest/gtest.h>

#include <cupti_profiler_target.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace cudalab::testing {
namespace {

const std::vector<std::string> two_metrics = {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                              "smsp__sass_average_data_bytes_per_sector_mem_"
                                              "global_op_ld.ratio"};

std::shared_ptr<fake_state> healthy() { return std::make_shared<fake_state>(); }

// A healthy GPU whose collects report `ranges`, one a kernel: its value of each metric.
std::shared_ptr<fake_state> healthy_with_ranges(std::vector<std::vector<double>> ranges) {
  auto state = healthy();
  state->ranges = std::move(ranges);
  return state;
}

counter_availability probe_with(const std::shared_ptr<fake_state>& state) {
  return counter_session::probe(make_fake(state), 0);
}

// The availability a constructor reports, or `available` when it succeeds.
counter_availability construct_with(const std::shared_ptr<fake_state>& state) {
  try {
    counter_session session(make_fake(state), two_metrics);
    counter_availability ok;
    ok.status = counter_status::available;
    return ok;
  } catch (const counters_unavailable& e) {
    return e.availability();
  }
}

// Expects a collect() of no launch on `session` to throw a cudalab::error whose message holds
// `words`; `unreported` is the failure when it returns instead.
void expect_collect_error(counter_session& session, const std::string& words,
                          const char* unreported) {
  try {
    session.collect([] {});
    FAIL() << unreported;
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

bool one_line(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }

TEST(counter_session_fake, probe_on_a_healthy_gpu_is_available_and_leaves_nothing_behind) {
  auto state = healthy();
  const counter_availability a = probe_with(state);
  EXPECT_TRUE(a.ok()) << a.reason;
  EXPECT_TRUE(state->destroyed);
  EXPECT_EQ(state->initialized, 0);
  EXPECT_FALSE(state->enabled);
  // Permission is only reported at enable, so probe goes that far and disables again.
  const std::vector<std::string> expected = {
      "device_count",         "compute_capability", "initialize", "device_supported", "chip_name",
      "counter_availability", "configure",          "enable",     "disable"};
  EXPECT_EQ(state->calls, expected);
}

TEST(counter_session_fake, no_device_names_the_driver_reason) {
  auto state = healthy();
  state->devices = 0;
  const counter_availability a = probe_with(state);
  EXPECT_EQ(a.status, counter_status::no_device);
  EXPECT_NE(a.reason.find("No CUDA device"), std::string::npos) << a.reason;
  EXPECT_NE(a.reason.find("cudaErrorNoDevice"), std::string::npos) << a.reason;
  EXPECT_EQ(std::count(state->calls.begin(), state->calls.end(), "initialize"), 0);
}

TEST(counter_session_fake, a_device_index_past_the_last_gpu_is_no_device) {
  auto state = healthy();
  const counter_availability a = counter_session::probe(make_fake(state), 3);
  EXPECT_EQ(a.status, counter_status::no_device);
  EXPECT_NE(a.reason.find("no GPU 3 (1 found)"), std::string::npos) << a.reason;
}

TEST(counter_session_fake, compute_capability_below_7_5_is_an_unsupported_chip) {
  auto state = healthy();
  state->cc_major = 7;
  state->cc_minor = 0;
  const counter_availability a = probe_with(state);
  EXPECT_EQ(a.status, counter_status::unsupported_chip);
  EXPECT_NE(a.reason.find("compute capability 7.0"), std::string::npos) << a.reason;
}

TEST(counter_session_fake, device_supported_names_the_failing_field) {
  auto state = healthy();
  state->support.overall = CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED;
  state->support.vgpu = CUPTI_PROFILER_CONFIGURATION_DISABLED;
  const counter_availability a = probe_with(state);
  EXPECT_EQ(a.status, counter_status::unsupported_chip);
  EXPECT_NE(a.reason.find("vGpu = disabled"), std::string::npos) << a.reason;
  EXPECT_NE(a.fix.find("hypervisor"), std::string::npos) << a.fix;

  auto wsl = healthy();
  wsl->support.overall = CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED;
  wsl->support.wsl = CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED;
  EXPECT_NE(probe_with(wsl).reason.find("wsl = unsupported"), std::string::npos);
}

TEST(counter_session_fake, profiler_attached_says_nvtx_ranges_are_still_emitted) {
  auto state = healthy();
  state->fail_at["initialize"] = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  const counter_availability a = construct_with(state);
  EXPECT_EQ(a.status, counter_status::profiler_attached);
  EXPECT_NE(a.reason.find("External profiler detected (ncu/nsys); in-process counters "
                          "disabled, NVTX ranges still emitted"),
            std::string::npos)
      << a.reason;
  EXPECT_TRUE(state->destroyed);
}

TEST(counter_session_fake, no_permission_at_enable_explains_the_driver_option) {
  auto state = healthy();
  state->fail_at["enable"] = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  for (const counter_availability& a : {probe_with(state), construct_with(state)}) {
    EXPECT_EQ(a.status, counter_status::no_permission);
    EXPECT_NE(a.reason.find("ERR_NVGPUCTRPERM"), std::string::npos) << a.reason;
    EXPECT_NE(a.reason.find("cuptiRangeProfilerEnable"), std::string::npos) << a.reason;
    EXPECT_NE(a.fix.find("NVreg_RestrictProfilingToAdminUsers=0"), std::string::npos) << a.fix;
    EXPECT_NE(a.fix.find("root"), std::string::npos) << a.fix;
    EXPECT_NE(a.fix.find("SYS_ADMIN"), std::string::npos) << a.fix;
    EXPECT_NE(a.fix.find("https://developer.nvidia.com/ERR_NVGPUCTRPERM"), std::string::npos);
  }
}

TEST(counter_session_fake, no_permission_at_start_surfaces_from_collect_and_disables) {
  auto state = healthy_with_ranges({{1, 2}});
  counter_session session(make_fake(state), two_metrics);
  state->fail_at["start"] = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  int launches = 0;
  try {
    session.collect([&] { ++launches; });
    FAIL() << "collect() succeeded without permission";
  } catch (const counters_unavailable& e) {
    EXPECT_EQ(e.availability().status, counter_status::no_permission);
    EXPECT_NE(e.availability().reason.find("cuptiRangeProfilerStart"), std::string::npos);
  }
  EXPECT_EQ(launches, 0);
  EXPECT_FALSE(state->enabled);
}

TEST(counter_session_fake, no_permission_when_a_later_collect_empties_its_data_is_reported) {
  auto state = healthy_with_ranges({{1, 2}});
  counter_session session(make_fake(state), two_metrics);
  session.collect([] {});
  state->fail_at["reset_counter_data"] = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  try {
    session.collect([] {});
    FAIL() << "collect() succeeded without permission";
  } catch (const counters_unavailable& e) {
    EXPECT_EQ(e.availability().status, counter_status::no_permission);
  }
  EXPECT_FALSE(state->enabled);
}

// CUPTI documents the permission error at enable; the old API raised it elsewhere. Whatever
// call refuses, the learner reads the same explanation.
class permission_at_any_call : public ::testing::TestWithParam<const char*> {};

TEST_P(permission_at_any_call, is_classified_as_no_permission) {
  auto state = healthy_with_ranges({{1, 2}});
  state->fail_at[GetParam()] = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  counter_status status = counter_status::available;
  try {
    counter_session session(make_fake(state), two_metrics);
    session.collect([] {});
  } catch (const counters_unavailable& e) {
    status = e.availability().status;
  }
  EXPECT_EQ(status, counter_status::no_permission) << "failing call: " << GetParam();
  EXPECT_FALSE(state->enabled);
  EXPECT_TRUE(state->destroyed);
}

INSTANTIATE_TEST_SUITE_P(counter_session_fake, permission_at_any_call,
                         ::testing::Values("initialize", "device_supported", "chip_name",
                                           "counter_availability", "configure", "enable",
                                           "set_config", "start", "stop", "decode", "range_count",
                                           "range_name", "evaluate"));

TEST(counter_session_fake, every_status_has_its_own_one_line_reason_and_fix) {
  std::vector<counter_availability> all;
  auto none = healthy();
  none->devices = 0;
  all.push_back(probe_with(none));
  auto old = healthy();
  old->cc_major = 6;
  all.push_back(probe_with(old));
  auto denied = healthy();
  denied->fail_at["enable"] = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES;
  all.push_back(probe_with(denied));
  auto attached = healthy();
  attached->fail_at["initialize"] = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  all.push_back(probe_with(attached));
  auto broken = healthy();
  broken->fail_at["counter_availability"] = CUPTI_ERROR_HARDWARE_BUSY;
  all.push_back(probe_with(broken));

  const std::vector<counter_status> expected = {
      counter_status::no_device, counter_status::unsupported_chip, counter_status::no_permission,
      counter_status::profiler_attached, counter_status::error};
  std::set<std::string> reasons, fixes;
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].status, expected[i]) << to_string(expected[i]) << ": " << all[i].reason;
    EXPECT_FALSE(all[i].ok());
    EXPECT_TRUE(one_line(all[i].reason)) << all[i].reason;
    EXPECT_TRUE(one_line(all[i].fix)) << all[i].fix;
    reasons.insert(all[i].reason);
    fixes.insert(all[i].fix);
  }
  EXPECT_EQ(reasons.size(), all.size());
  EXPECT_EQ(fixes.size(), all.size());
  EXPECT_NE(all.back().reason.find("cuptiProfilerGetCounterAvailability failed: "
                                   "CUPTI_ERROR_HARDWARE_BUSY"),
            std::string::npos)
      << all.back().reason;
}

TEST(counter_session_fake, status_names_are_distinct) {
  std::set<std::string_view> names;
  for (auto s :
       {counter_status::available, counter_status::no_device, counter_status::unsupported_chip,
        counter_status::no_permission, counter_status::profiler_attached, counter_status::error})
    names.insert(to_string(s));
  EXPECT_EQ(names.size(), 6u);
}

TEST(counter_session_fake, a_metric_the_chip_does_not_know_is_an_error_naming_it) {
  auto state = healthy();
  state->unknown_metrics = {unknown_metric};
  expect_unknown_metric_error(
      [&] {
        counter_session session(make_fake(state), {"smsp__inst_executed.sum", unknown_metric});
      },
      [](const std::string& what) {
        EXPECT_NE(what.find("GH100"), std::string::npos) << what;
        EXPECT_NE(what.find("CUPTI_ERROR_INVALID_PARAMETER"), std::string::npos) << what;
        EXPECT_EQ(what.find("smsp__inst_executed.sum'"), std::string::npos) << what;
      });
  EXPECT_TRUE(state->destroyed);
}

TEST(counter_session_fake, a_catalogue_metric_the_chip_lacks_is_left_out_and_named) {
  auto state = healthy_with_ranges({{131072}});
  state->chip = "GB202";
  state->unknown_metrics = {"dram__bytes_read.sum"};
  const std::string sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  counter_session session(make_fake(state), {sectors, "dram__bytes_read.sum"});
  EXPECT_EQ(session.metrics(), std::vector<std::string>{sectors});
  EXPECT_EQ(session.missing(),
            (std::map<std::string, std::string>{{"dram__bytes_read.sum", "not on GB202"}}));
  EXPECT_EQ(state->configured, std::vector<std::string>{sectors})
      << "the backend must keep the configuration without the missing metric";
  const counter_result r = session.collect([] {});
  EXPECT_EQ(r.totals.at(sectors), 131072);
  EXPECT_EQ(r.totals.count("dram__bytes_read.sum"), 0u);
}

TEST(counter_session_fake, a_chip_lacking_every_metric_asked_for_has_no_counters_for_them) {
  auto state = healthy();
  state->chip = "GB202";
  state->unknown_metrics = {"dram__bytes_read.sum", "dram__bytes_write.sum"};
  try {
    counter_session session(make_fake(state), {"dram__bytes_read.sum", "dram__bytes_write.sum"});
    FAIL() << "a session with nothing to collect was opened";
  } catch (const counters_unavailable& e) {
    EXPECT_EQ(e.availability().status, counter_status::unsupported_chip);
    EXPECT_EQ(e.availability().reason, "none of the metrics asked for exists on GB202");
    EXPECT_TRUE(one_line(e.availability().fix));
  }
  EXPECT_FALSE(state->enabled);
}

TEST(counter_session_fake, collect_returns_each_kernel_and_sums_or_averages_totals) {
  auto state = healthy_with_ranges({{131072, 32}, {1048576, 4}});
  counter_session session(make_fake(state), two_metrics);
  int launches = 0;
  const counter_result r = session.collect([&] { ++launches; });
  EXPECT_EQ(launches, 1);
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[0].range_name, "0");
  EXPECT_EQ(r.kernels[1].range_name, "1");
  EXPECT_EQ(r.kernels[1].values.at(two_metrics[0]), 1048576);
  EXPECT_EQ(r.totals.at(two_metrics[0]), 131072 + 1048576);  // .sum adds up
  EXPECT_EQ(r.totals.at(two_metrics[1]), 18);                // a ratio is the mean
  // One spare range: a full image is how silently lost kernels show (see counter_session.cpp).
  EXPECT_EQ(state->max_ranges, counter_session::max_kernels_per_collect + 1);
  EXPECT_EQ(state->replay, counter_replay::kernel);
  EXPECT_TRUE(state->enabled);  // until the session ends: see counters.hpp
}

// A tree kernel and its finishing pass: the mean of their ratios (about 24 and 32) is not
// the variant's ratio; the sums of the counts behind it are.
TEST(combine_totals, takes_thread_efficiency_and_branch_uniformity_from_their_counts) {
  const std::string efficiency = "smsp__average_thread_inst_executed_per_inst_executed.ratio";
  const std::string uniformity = "smsp__sass_average_branch_targets_threads_uniform.pct";
  kernel_counters tree, finish;
  tree.values = {{efficiency, 24.0},
                 {uniformity, 80.0},
                 {"smsp__thread_inst_executed.sum", 2400.0},
                 {"smsp__inst_executed.sum", 100.0},
                 {"smsp__sass_branch_targets_threads_uniform.sum", 8.0},
                 {"smsp__sass_branch_targets_threads_divergent.sum", 2.0}};
  finish.values = {{efficiency, 32.0},
                   {uniformity, 100.0},
                   {"smsp__thread_inst_executed.sum", 9600.0},
                   {"smsp__inst_executed.sum", 300.0},
                   {"smsp__sass_branch_targets_threads_uniform.sum", 30.0},
                   {"smsp__sass_branch_targets_threads_divergent.sum", 0.0}};
  const auto t = combine_totals({tree, finish});
  EXPECT_DOUBLE_EQ(t.at(efficiency), 12000.0 / 400.0);      // not (24 + 32) / 2
  EXPECT_DOUBLE_EQ(t.at(uniformity), 100.0 * 38.0 / 40.0);  // not (80 + 100) / 2
  // Without the counts, the ratios can only be averaged.
  tree.values = {{efficiency, 24.0}};
  finish.values = {{efficiency, 32.0}};
  EXPECT_DOUBLE_EQ(combine_totals({tree, finish}).at(efficiency), 28.0);
}

int count_calls(const fake_state& state, const std::string& call) {
  return static_cast<int>(std::count(state.calls.begin(), state.calls.end(), call));
}

TEST(counter_session_fake, many_collects_enable_and_configure_once_and_the_end_disables) {
  auto state = healthy_with_ranges({{1, 1}});
  {
    counter_session session(make_fake(state), two_metrics);
    state->calls.clear();  // the constructor's permission check enables and disables once
    for (int i = 0; i < 3; ++i) session.collect([] {});
    EXPECT_EQ(count_calls(*state, "enable"), 1);
    EXPECT_EQ(count_calls(*state, "set_config"), 1);
    EXPECT_EQ(count_calls(*state, "reset_counter_data"), 2);
    EXPECT_EQ(count_calls(*state, "disable"), 0);
    EXPECT_TRUE(state->enabled);
  }
  EXPECT_FALSE(state->enabled);
  EXPECT_TRUE(state->destroyed);
}

TEST(counter_session_fake, a_failed_collect_disables_and_the_next_one_configures_again) {
  auto state = healthy_with_ranges({{1, 1}});
  counter_session session(make_fake(state), two_metrics);
  session.collect([] {});
  EXPECT_THROW(session.collect([] { throw usage_error("bad launch"); }), usage_error);
  EXPECT_FALSE(state->enabled);
  state->calls.clear();
  EXPECT_EQ(session.collect([] {}).totals.at(two_metrics[0]), 1);
  EXPECT_EQ(count_calls(*state, "enable"), 1);
  EXPECT_EQ(count_calls(*state, "set_config"), 1);
}

TEST(counter_session_fake, user_replay_runs_before_pass_and_the_launches_once_per_pass) {
  auto state = healthy_with_ranges({{1, 1}});
  state->passes = 3;
  state->stops_until_all_submitted = 3;
  counter_session session(make_fake(state), two_metrics, counter_replay::user);
  EXPECT_EQ(session.replay(), counter_replay::user);
  std::vector<std::string> order;
  session.collect([&] { order.push_back("launch"); }, [&] { order.push_back("before"); });
  EXPECT_EQ(state->replay, counter_replay::user);
  const std::vector<std::string> expected = {"before", "launch", "before",
                                             "launch", "before", "launch"};
  EXPECT_EQ(order, expected);
  // before_pass runs outside the profiled range: before each Start.
  std::vector<std::string> starts;
  for (const auto& c : state->calls)
    if (c == "start" || c == "stop") starts.push_back(c);
  EXPECT_EQ(starts.size(), 6u);
}

TEST(counter_session_fake, kernel_replay_runs_before_pass_once) {
  auto state = healthy_with_ranges({{1, 1}});
  state->passes = 3;
  counter_session session(make_fake(state), two_metrics);
  int before = 0, launches = 0;
  session.collect([&] { ++launches; }, [&] { ++before; });
  EXPECT_EQ(before, 1);
  EXPECT_EQ(launches, 1);
}

TEST(counter_session_fake, a_single_kernel_total_is_its_value) {
  auto state = healthy_with_ranges({{4096, 25.6}});
  counter_session session(make_fake(state), two_metrics);
  const counter_result r = session.collect([] {});
  EXPECT_EQ(r.totals.at(two_metrics[0]), 4096);
  EXPECT_EQ(r.totals.at(two_metrics[1]), 25.6);
}

TEST(counter_session_fake, collect_repeats_start_stop_until_every_pass_is_submitted) {
  auto state = healthy_with_ranges({{1, 1}});
  state->passes = 3;
  state->stops_until_all_submitted = 3;
  counter_session session(make_fake(state), two_metrics);
  EXPECT_EQ(session.passes(), 3);
  int launches = 0;
  session.collect([&] { ++launches; });
  EXPECT_EQ(launches, 3);
}

TEST(counter_session_fake, a_pass_loop_that_never_ends_is_an_error) {
  auto state = healthy_with_ranges({{1, 1}});
  state->passes = 2;
  state->stops_until_all_submitted = 1000;
  counter_session session(make_fake(state), two_metrics);
  EXPECT_THROW(session.collect([] {}), error);
  EXPECT_FALSE(state->enabled);
}

TEST(counter_session_fake, dropped_ranges_are_an_error) {
  auto state = healthy();
  state->dropped = 2;
  state->ranges = std::vector<std::vector<double>>(64, {1, 1});
  counter_session session(make_fake(state), two_metrics);
  try {
    session.collect([] {});
    FAIL() << "dropped ranges went unreported";
  } catch (const error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("dropped 2 kernel range"), std::string::npos) << what;
    EXPECT_NE(what.find("at most 128"), std::string::npos) << what;
  }
  EXPECT_FALSE(state->enabled);
}

// What the H100 did with 66 kernels: it kept the ranges that fit and reported none dropped.
TEST(counter_session_fake, a_full_counter_image_is_reported_as_dropped_ranges) {
  auto state = healthy();
  state->dropped = 0;
  state->ranges =
      std::vector<std::vector<double>>(counter_session::max_kernels_per_collect + 1, {1, 1});
  counter_session session(make_fake(state), two_metrics);
  expect_collect_error(session, "dropped kernel range", "a full counter image went unreported");
  EXPECT_FALSE(state->enabled);
}

TEST(counter_session_fake, a_collect_that_launches_nothing_is_an_error) {
  auto state = healthy();
  counter_session session(make_fake(state), two_metrics);
  expect_collect_error(session, "no kernel", "an empty collect() returned counters");
}

TEST(counter_session_fake, a_throwing_launch_stops_the_pass_and_propagates) {
  auto state = healthy_with_ranges({{1, 1}});
  counter_session session(make_fake(state), two_metrics);
  EXPECT_THROW(session.collect([] { throw usage_error("bad launch"); }), usage_error);
  EXPECT_FALSE(state->started);
  EXPECT_FALSE(state->enabled);
}

TEST(counter_session_fake, an_unexpected_cupti_error_in_collect_names_the_call) {
  auto state = healthy_with_ranges({{1, 1}});
  counter_session session(make_fake(state), two_metrics);
  state->fail_at["decode"] = CUPTI_ERROR_UNKNOWN;
  try {
    session.collect([] {});
    FAIL() << "a decode failure went unreported";
  } catch (const counters_unavailable& e) {
    FAIL() << "an unexpected failure is not unavailability: " << e.what();
  } catch (const error& e) {
    EXPECT_NE(
        std::string(e.what()).find("cuptiRangeProfilerDecodeData failed: CUPTI_ERROR_UNKNOWN"),
        std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(state->enabled);
}

TEST(counter_session_fake, a_moved_session_still_collects) {
  auto state = healthy_with_ranges({{7, 1}});
  counter_session first(make_fake(state), two_metrics);
  counter_session second(std::move(first));
  EXPECT_EQ(second.metrics(), two_metrics);
  EXPECT_EQ(second.collect([] {}).totals.at(two_metrics[0]), 7);
}

}  // namespace
}  // namespace cudalab::testing
