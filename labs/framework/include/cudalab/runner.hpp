// The runner: prepares, times, verifies and measures variants, one result_row per point.
//
// Order for every variant and launch_config:
//   NVTX <lab> > <variant> > alloc, h2d (prepare) | kernel (timed) | d2h, verify
//   1. warm-up, then `repeat` timed launches with CUDA events (reset before each, untimed);
//   2. verify against the CPU reference;
//   3. only then, in separate launches, the counters (never timed while collecting); points
//      wait and share CUPTI passes in batches (labs/framework/src/counter_batch.hpp), under
//      NVTX <lab> > <variant> > counters.
#pragma once

#include "cudalab/counters.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/timing.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudalab {

struct run_request {
  const lab* which = nullptr;
  std::vector<const variant*> variants;  // empty: every variant of the lab except exercises
  std::vector<std::size_t> sizes;        // empty: lab.default_size
  std::vector<int> blocks;               // empty: each variant's default_block
  std::vector<long> sweep;               // empty: each sweep variant's default values
  int warmup = 3;
  int repeat = 20;
  bool counters = true;
  std::vector<std::string> metrics;  // CUPTI names; empty: the lab's default set (memory)
  std::vector<std::string> extra_metrics;  // added to either (the checkers' own counters)
  int device = 0;
  bool gpu = true;  // false: predictions only (no device here)
};

struct counter_cell {
  bool available = false;
  std::string reason;                      // why not, shown as `n/a (reason)`
  std::map<std::string, double> totals;    // keyed by CUPTI name
  std::map<std::string, std::string> missing;  // CUPTI name -> why ("not on GA100")
  std::vector<kernel_counters> per_kernel;
  // Convenience: the total of a catalogue metric by short or CUPTI name.
  std::optional<double> get(std::string_view metric) const;
};

struct result_row {
  std::string lab_id;
  std::string variant_name;
  variant_role role = variant_role::naive;
  std::optional<std::string> sweep_name;
  launch_config config;
  launch_shape shape;
  bool measured = false;  // false: no GPU, only predictions
  timing_stats time;
  work_counts ideal;
  double gbps = 0;         // ideal bytes / median time
  double pct_of_roof = 0;  // gbps / measured cudaMemcpy D2D bandwidth, in percent
  double payload_gbps = 0;  // the problem's own bytes (ideal.payload()) / median time
  verify_result check;
  std::optional<model::access_counts> predicted;
  counter_cell counters;
};

// Runs the request; calls `on_row` as each row completes (for progress on large sweeps).
std::vector<result_row> run_lab(const run_request& request,
                                const std::function<void(const result_row&)>& on_row = {});

// Bandwidth of cudaMemcpy device to device (bytes read + written / time): the practical
// roof for %peak. Measured once per process and device.
double measured_copy_gbps(int device);

}  // namespace cudalab
