// counter_session: the order of Range Profiler calls and what each failure means.
//
// Construction: device count, compute capability, initialize,
// device support, chip name, counter availability, the host configuration of the metric set
// (passes), then enable and disable once, since CUPTI reports missing permission at enable.
// The first collect() enables the profiler on the primary context, sizes counter data for
// max_kernels_per_collect ranges and sets the configuration (auto range: one range per kernel;
// kernel or user replay); later collects only empty the counter data. Each collect runs
// Start/launches/Stop until every pass is submitted, decodes and evaluates every range. A
// collect that fails disables the profiler, so the next one starts from a clean state.
//
// Why the profiler stays enabled (measured on the H100, lab 04 at 1M, 71 collects): enabling
// per collect made the first Start after each enable cost 194 ms and the disable 22 ms, 15.4 s
// in all; enabled once, Start costs 3 ms.
#include "cudalab/counters.hpp"

#include "availability.hpp"
#include "phase_trace.hpp"

#include <cuda_runtime_api.h>

#include "cudalab/metrics.hpp"

#include <cstdio>
#include <map>
#include <utility>

namespace cudalab {
namespace {

struct setup {
  counter_availability availability;
  std::size_t passes = 0;
  std::vector<std::string> metrics;            // what the configuration collects
  std::map<std::string, std::string> missing;  // catalogue metrics this chip lacks -> why
};

// ConfigAddMetrics says INVALID_PARAMETER for the whole set: tries each name alone. A catalogue
// metric the chip lacks (dram__bytes_read.sum on GB202) is left out and recorded, so the run
// shows `n/a (not on GB202)` for it and collects the rest; any other name is the user's
// mistake and an error naming it. Configures the rest last, so the backend keeps that
// configuration for evaluation. False when nothing is left to collect (s.availability says so).
bool configure_without_missing(profiler_backend& backend, const std::string& chip,
                               const std::vector<std::uint8_t>& availability, setup& s,
                               const detail::cupti_error& original) {
  std::vector<std::string> kept;
  for (const auto& m : s.metrics) {
    try {
      backend.configure(chip, availability, {m});
      kept.push_back(m);
    } catch (const detail::cupti_error& e) {
      if (e.code() != CUPTI_ERROR_INVALID_PARAMETER) throw;
      if (find_metric(m)) {
        s.missing[m] = "not on " + chip;
        continue;
      }
      throw error("CUPTI does not know metric '" + m + "' on " + chip + " (" + e.what() + ")",
                  "`cudalab metrics` lists the catalogue; `ncu --query-metrics --chip " + chip +
                      "` lists every base name (add a rollup such as .sum, .avg or .ratio)");
    }
  }
  if (s.missing.empty()) throw original;
  if (kept.empty()) {
    s.availability = detail::no_metric_on_chip(chip);
    return false;
  }
  s.metrics = std::move(kept);
  s.passes = backend.configure(chip, availability, s.metrics);
  return true;
}

// The common path of probe() and the constructor. Returns available() with the pass count,
// or the reason counters cannot be read. Unknown metric names throw cudalab::error.
setup open(profiler_backend& backend, int device, const std::vector<std::string>& metrics) {
  setup s;
  s.metrics = metrics;
  std::string why;
  const int count = backend.device_count(why);
  if (count <= 0) {
    s.availability = detail::no_device(why);
    return s;
  }
  if (device < 0 || device >= count) {
    s.availability = detail::no_device("there is no GPU " + std::to_string(device) + " (" +
                                       std::to_string(count) + " found)");
    return s;
  }
  if (auto refused = detail::refused_by_test_hook()) {
    s.availability = *refused;
    return s;
  }
  int major = 0, minor = 0;
  backend.compute_capability(device, major, minor);
  if (major * 10 + minor < 75) {
    s.availability = detail::compute_capability_too_old(device, major, minor);
    return s;
  }
  try {
    backend.initialize();
    if (auto bad = detail::unsupported(device, backend.device_supported(device))) {
      s.availability = *bad;
      return s;
    }
    const std::string chip = backend.chip_name(device);
    const std::vector<std::uint8_t> image = backend.counter_availability(device);
    try {
      s.passes = backend.configure(chip, image, s.metrics);
    } catch (const detail::cupti_error& e) {
      if (e.code() != CUPTI_ERROR_INVALID_PARAMETER) throw;
      if (!configure_without_missing(backend, chip, image, s, e)) return s;
    }
    backend.enable();
    backend.disable();
  } catch (const detail::cupti_error& e) {
    s.availability = detail::classify(e);
    return s;
  }
  s.availability = detail::available();
  return s;
}

}  // namespace

struct counter_session::impl {
  std::unique_ptr<profiler_backend> backend;
  std::vector<std::string> metrics;
  std::map<std::string, std::string> missing;
  counter_replay replay = counter_replay::kernel;
  std::size_t passes = 0;
  bool configured = false;  // enabled, with counter data and configuration set
  detail::phase_trace trace;

  ~impl() {
    unconfigure();
    trace.print(stderr);
  }
  counter_result collect(const std::function<void()>& launches,
                         const std::function<void()>& before_pass);
  void configure();
  std::size_t run_passes(const std::function<void()>& launches,
                         const std::function<void()>& before_pass);
  counter_result evaluate(std::size_t ranges);
  // Disables the profiler; never throws (a failed collect and the destructor call it).
  void unconfigure() noexcept;
};

counter_availability counter_session::probe(int device) {
  int previous = -1;
  const bool restore = cudaGetDevice(&previous) == cudaSuccess;
  cudaGetLastError();
  counter_availability a;
  try {
    a = probe(make_cupti_backend(), device);
  } catch (const std::exception& e) {
    a.status = counter_status::error;
    a.reason = e.what();
    a.fix = "run `cudalab doctor`";
  }
  if (restore && previous >= 0) CUDALAB_CHECK_CUDA_NOEXCEPT(cudaSetDevice(previous));
  return a;
}

counter_availability counter_session::probe(std::unique_ptr<profiler_backend> backend, int device) {
  // One cheap metric: enough to load libnvperf_host and build a configuration on this chip.
  try {
    return open(*backend, device, {"smsp__inst_executed.sum"}).availability;
  } catch (const detail::cupti_error& e) {
    return detail::classify(e);
  } catch (const error& e) {
    counter_availability a;
    a.status = counter_status::error;
    a.reason = e.what();
    a.fix = e.hint().empty() ? "run `cudalab doctor`" : e.hint();
    return a;
  }
}

counter_session::counter_session(int device, std::vector<std::string> cupti_metrics,
                                 counter_replay replay)
    : counter_session(make_cupti_backend(), std::move(cupti_metrics), replay, device) {}

counter_session::counter_session(std::unique_ptr<profiler_backend> backend,
                                 std::vector<std::string> metrics, counter_replay replay)
    : counter_session(std::move(backend), std::move(metrics), replay, 0) {}

counter_session::counter_session(std::unique_ptr<profiler_backend> backend,
                                 std::vector<std::string> metrics, counter_replay replay,
                                 int device)
    : m_impl(std::make_unique<impl>()) {
  if (metrics.empty()) throw usage_error("counter session: no metrics to collect");
  m_impl->backend = std::move(backend);
  m_impl->metrics = std::move(metrics);
  m_impl->replay = replay;
  setup s;
  {
    detail::timed_phase t(m_impl->trace, "open");
    s = open(*m_impl->backend, device, m_impl->metrics);
  }
  if (!s.availability.ok()) throw counters_unavailable(s.availability);
  m_impl->passes = s.passes;
  m_impl->metrics = std::move(s.metrics);
  m_impl->missing = std::move(s.missing);
}

counter_session::~counter_session() = default;
counter_session::counter_session(counter_session&&) noexcept = default;
counter_session& counter_session::operator=(counter_session&&) noexcept = default;

int counter_session::passes() const { return static_cast<int>(m_impl->passes); }
const std::vector<std::string>& counter_session::metrics() const { return m_impl->metrics; }
const std::map<std::string, std::string>& counter_session::missing() const {
  return m_impl->missing;
}
counter_replay counter_session::replay() const { return m_impl->replay; }

counter_result counter_session::collect(const std::function<void()>& launches,
                                        const std::function<void()>& before_pass) {
  try {
    return m_impl->collect(launches, before_pass);
  } catch (const detail::cupti_error& e) {
    const counter_availability a = detail::classify(e);
    if (a.status == counter_status::error) throw;
    throw counters_unavailable(a);
  }
}

counter_result counter_session::impl::collect(const std::function<void()>& launches,
                                              const std::function<void()>& before_pass) {
  try {
    configure();
    const std::size_t ranges = run_passes(launches, before_pass);
    return evaluate(ranges);
  } catch (...) {
    unconfigure();
    throw;
  }
}

void counter_session::impl::configure() {
  using detail::timed_phase;
  if (configured) {
    timed_phase t(trace, "reset_data");
    backend->reset_counter_data();
    return;
  }
  {
    timed_phase t(trace, "enable");
    backend->enable();
  }
  // One spare range as an overflow sentinel: measured on the H100, CUPTI keeps the first
  // max ranges of a longer launch sequence and reports none dropped (64 of 66 kernels), so a
  // full counter image is the only sign that kernels were lost.
  timed_phase t(trace, "set_config");
  backend->set_config(counter_session::max_kernels_per_collect + 1, replay);
  configured = true;
}

std::size_t counter_session::impl::run_passes(const std::function<void()>& launches,
                                              const std::function<void()>& before_pass) {
  using detail::timed_phase;
  const std::size_t max_ranges = counter_session::max_kernels_per_collect;
  // Kernel replay submits every pass in one Start/Stop; user replay needs one round per
  // pass. The loop is the API's contract either way.
  bool all_submitted = false;
  for (std::size_t round = 0; !all_submitted; ++round) {
    if (round > passes)
      throw error("CUPTI still wants passes after " + std::to_string(round) +
                  " Start/Stop rounds for a " + std::to_string(passes) + "-pass metric set");
    if (before_pass) {
      timed_phase t(trace, "before_pass");
      before_pass();
    }
    {
      timed_phase t(trace, "start");
      backend->start();
    }
    try {
      timed_phase t(trace, "launches");
      launches();
    } catch (...) {
      try {
        backend->stop();
      } catch (const std::exception&) {
        // the launches' own error is the one to report
      }
      throw;
    }
    timed_phase t(trace, "stop");
    all_submitted = backend->stop();
  }

  timed_phase t(trace, "decode");
  const std::size_t dropped = backend->decode();
  if (dropped > 0)
    throw error("CUPTI dropped " + std::to_string(dropped) +
                    " kernel range(s): one collect() measures at most " +
                    std::to_string(max_ranges) + " kernel launches",
                "launch fewer kernels inside one collect() and collect the rest separately");
  const std::size_t ranges = backend->range_count();
  if (ranges > max_ranges)
    throw error("CUPTI dropped kernel range(s): one collect() measures at most " +
                    std::to_string(max_ranges) + " kernel launches",
                "launch fewer kernels inside one collect() and collect the rest separately");
  if (ranges == 0)
    throw error("collect() measured no kernel: the callable launched nothing on this device",
                "launch the kernels inside the callable, on the session's device");
  return ranges;
}

counter_result counter_session::impl::evaluate(std::size_t ranges) {
  detail::timed_phase t(trace, "evaluate");
  counter_result result;
  for (std::size_t r = 0; r < ranges; ++r) {
    kernel_counters k;
    k.range_name = backend->range_name(r);
    const std::vector<double> values = backend->evaluate(r);
    if (values.size() != metrics.size())
      throw error("CUPTI evaluated " + std::to_string(values.size()) + " values for " +
                  std::to_string(metrics.size()) + " metrics");
    for (std::size_t i = 0; i < metrics.size(); ++i) k.values[metrics[i]] = values[i];
    result.kernels.push_back(std::move(k));
  }
  result.totals = combine_totals(result.kernels);
  return result;
}

void counter_session::impl::unconfigure() noexcept {
  if (!backend) return;  // moved from
  configured = false;
  try {
    detail::timed_phase t(trace, "disable");
    backend->disable();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cudalab: %s\n", e.what());
  }
}

}  // namespace cudalab
