// In-process hardware counters through the CUPTI Range Profiler (CUDA 13).
//
// counter_session is RAII and move-only: it owns the profiler object of one context and one
// metric configuration. collect() runs a callable that launches kernels; every kernel becomes
// one range (auto range). A metric set that needs several passes is replayed one of two ways:
//   kernel replay (default): CUPTI saves and restores device memory and replays each kernel
//                 itself; the callable runs once. Costs about 13 ms per extra pass on the H100.
//   user replay:  collect() runs before_pass() and the callable once per pass; before_pass must
//                 restore the inputs (and, for DRAM counts, evict the L2: see l2_flush.hpp).
//                 Costs microseconds per pass; what `cudalab run` uses.
// The profiler is enabled and configured at the first collect() and stays so until the session
// ends: enabling costs about 200 ms at the first Start. While no collect() runs, no range is
// open and kernels run unprofiled (timings measured between collects matched a run with no
// session within 0.3% on the H100; docs/benchmarks.md).
//
// When counters cannot be read (no device, unsupported chip, no permission, another profiler
// attached), the constructor throws counters_unavailable carrying a counter_availability: the
// caller prints `n/a (reason)` and carries on with timings and predictions.
#pragma once

#include "cudalab/check.hpp"

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cudalab {

enum class counter_status {
  available,
  no_device,
  unsupported_chip,
  no_permission,
  profiler_attached,
  error
};
std::string_view to_string(counter_status s);

struct counter_availability {
  counter_status status = counter_status::error;
  std::string reason;  // one line: "GPU performance counters are restricted to admin users ..."
  std::string fix;     // what to do about it
  bool ok() const { return status == counter_status::available; }
};

class counters_unavailable : public error {
 public:
  explicit counters_unavailable(counter_availability why);
  const counter_availability& availability() const noexcept { return m_why; }

 private:
  counter_availability m_why;
};

struct kernel_counters {
  std::string range_name;                // as CUPTI named it
  std::map<std::string, double> values;  // CUPTI metric name -> value
};

struct counter_result {
  std::vector<kernel_counters> kernels;  // one per kernel launch, in launch order
  // Per variant: `.sum` metrics add up over kernels; other metrics are the value of a single
  // kernel, or the mean over kernels (see combine_totals; documented in docs/metrics.md).
  std::map<std::string, double> totals;
};

enum class counter_replay { kernel, user };

// The totals of a run of kernels: `.sum` metrics add up, other metrics are averaged, except
// thread efficiency and branch uniformity, which are recomputed from their counts' sums where
// those were collected too (thread / warp instructions; uniform / all branch targets).
std::map<std::string, double> combine_totals(const std::vector<kernel_counters>& kernels);

// The seam between the session and CUPTI, so failure paths are testable without a GPU.
class profiler_backend;

class counter_session {
 public:
  // The most kernel launches one collect() measures; more are reported as dropped ranges.
  static constexpr std::size_t max_kernels_per_collect = 128;

  // Checks whether counters can be read on `device` without starting a session: CUPTI is
  // initialized, asked, and deinitialized again, so a session can follow in this process.
  static counter_availability probe(int device);
  // The same through another backend (tests: a fake that fails at a chosen call).
  static counter_availability probe(std::unique_ptr<profiler_backend> backend, int device);

  // Throws counters_unavailable or cudalab::error (a name outside the catalogue that this chip
  // does not know). A catalogue metric the chip lacks is left out: see missing().
  // Makes `device` current: collect() profiles the kernels launched on it.
  counter_session(int device, std::vector<std::string> cupti_metrics,
                  counter_replay replay = counter_replay::kernel);
  // For tests: a session over a fake backend, on device 0.
  counter_session(std::unique_ptr<profiler_backend> backend, std::vector<std::string> metrics,
                  counter_replay replay = counter_replay::kernel);
  ~counter_session();
  counter_session(const counter_session&) = delete;  // owns the CUPTI profiler object
  counter_session& operator=(const counter_session&) = delete;
  counter_session(counter_session&&) noexcept;
  counter_session& operator=(counter_session&&) noexcept;

  // Runs `launches` as often as CUPTI needs (once under kernel replay, once per pass under
  // user replay, each time after before_pass, which runs outside the profiled range) and
  // returns the counters of each kernel. Throws cudalab::error when no kernel ran or ranges
  // were dropped, counters_unavailable when CUPTI refuses (permission, another profiler).
  counter_result collect(const std::function<void()>& launches,
                         const std::function<void()>& before_pass = {});
  counter_replay replay() const;
  int passes() const;
  // The metrics collected: those asked for, less the catalogue metrics this chip lacks.
  const std::vector<std::string>& metrics() const;
  // The catalogue metrics asked for that this chip lacks, with why ("not on GB202"): left out
  // of the collection so that the rest still works.
  const std::map<std::string, std::string>& missing() const;

 private:
  counter_session(std::unique_ptr<profiler_backend> backend, std::vector<std::string> metrics,
                  counter_replay replay, int device);
  struct impl;
  std::unique_ptr<impl> m_impl;
};

}  // namespace cudalab
