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
#include "cudalab/trace/trace_record.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudalab {

// --sweep. A list under a sweep's name ("offset" -> 0,8,16) is that sweep's own; the list under
// "" (a bare `--sweep 0..32`) goes to every sweep variant, each taking the values inside its
// range. No values: each sweep's default points. full: every value of each sweep's range.
struct sweep_request {
  std::map<std::string, std::vector<long>> values;
  bool full = false;
  bool empty() const { return values.empty() && !full; }
};

// The parameter values variant `v` runs for `request`; {0} when it does not sweep. Throws
// usage_error for a named value outside the sweep's range or a bare list with none inside it.
// `dropped` (optional) receives the values of a bare list outside v's range.
std::vector<long> sweep_values(const variant& v, const sweep_request& request,
                               std::vector<long>* dropped = nullptr);

// CUDA's grid limits: x up to 2^31-1 blocks, y and z up to 65,535 (every GPU since sm_30, the
// H100 included: the limits assumed where no device is present).
struct grid_limits {
  std::uint64_t x = 2147483647u, y = 65535u, z = 65535u;
};

struct run_request {
  const lab* which = nullptr;
  std::vector<const variant*> variants;  // empty: every variant of the lab except exercises
  std::vector<std::size_t> sizes;        // empty: lab.default_size
  std::vector<int> blocks;               // empty: each variant's default_block
  sweep_request sweep;
  int warmup = 3;
  int repeat = 20;
  bool counters = true;
  std::vector<std::string> metrics;        // CUPTI names; empty: the lab's default set (memory)
  std::vector<std::string> extra_metrics;  // added to either (the checkers' own counters)
  int device = 0;
  bool gpu = true;  // false: predictions only (no device here)
  // Told what the run is doing ("timing 04-coalescing/soa (3 of 17)"), for a progress line.
  std::function<void(const std::string&)> progress;
  // Told of points the run leaves out (a variant above its max_size), one line each.
  std::function<void(const std::string&)> omitted;
  // Called once every point has passed the checks, before any work: notes that only an
  // accepted run should print.
  std::function<void()> accepted;
};

struct counter_cell {
  bool available = false;
  std::string reason;  // why not, shown as `n/a (reason)`
  // Metrics of the set that this run could not collect although the others were, keyed by
  // CUPTI name, with why ("not on GA100"); their cells show `n/a (why)`.
  std::map<std::string, std::string> missing;
  std::map<std::string, double> totals;  // keyed by CUPTI name
  std::vector<kernel_counters> per_kernel;
  // Filled from the memory tracer's counts because the hardware counters were refused
  // (counters_from_trace in trace_run.hpp): only the metrics the tracer measures are present.
  bool from_trace = false;
  // Convenience: the total of a catalogue metric by short or CUPTI name.
  std::optional<double> get(std::string_view metric) const;
};

// What the memory tracer measured for a point (cudalab run --trace; trace_run.hpp): the access
// model's counts of the binary that ran, and every traced launch with its per-pc totals.
struct trace_cell {
  bool available = false;
  std::string reason;  // why not, shown as `n/a (reason)`
  model::access_counts counts;
  std::vector<trace::traced_launch> launches;
};

// Wall time of a point's phases on the host, in milliseconds (the NVTX phases of the same
// names): where a run's time goes besides the kernel (source data, copies, verification).
struct phase_times {
  double alloc_ms = 0;   // prepare: device buffers and host inputs
  double h2d_ms = 0;     // inputs to the device
  double kernel_ms = 0;  // warm-up and timed repeats, resets included
  double d2h_ms = 0;     // results to the host
  double verify_ms = 0;  // the CPU reference and the comparison
  double wait_ms = 0;    // waiting for the model's prediction
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
  double gbps = 0;             // ideal bytes / median time
  double pct_of_roof = 0;      // gbps / measured cudaMemcpy D2D bandwidth, in percent
  double payload_gbps = 0;     // the problem's own bytes (ideal.payload()) / median time
  verify_result verification;  // the result against the CPU reference
  std::optional<model::access_counts> predicted;
  counter_cell counters;
  phase_times phases;
  std::vector<kernel_resources> resources;  // variant::resources, main kernel first
  std::optional<trace_cell> trace;          // only when the run was traced
  // The hardware's SASS-level counts per instruction, beside the trace's (run --lines with
  // counters permitted; sass_lines_run.hpp): the same record, measured by CUPTI.
  std::optional<trace_cell> hardware_lines;
};

// Runs the request: one row per variant, size, block and sweep value. Every point is checked
// first (each variant's block rule, CUDA's grid limits, sizes, sweep values, the model's
// budget), so bad input is a usage_error before anything is predicted or launched.
std::vector<result_row> run_lab(const run_request& request);

// The checks run_lab makes before any work (each point's block rule, grid, size and sweep
// value against every GPU's limits, the model's budget), alone: for a caller that must refuse
// bad input before it finds out that nothing can run.
void check_run_request(const run_request& request);

// Bandwidth of cudaMemcpy device to device (bytes read + written / time): the practical
// roof for %peak. Measured once per process and device.
double measured_copy_gbps(int device);

}  // namespace cudalab
