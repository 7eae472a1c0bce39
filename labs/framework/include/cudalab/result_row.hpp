// One point's results (runner.hpp): its timing, verification, counters, the model's prediction,
// and what the tracer and the hardware counted per instruction.
#pragma once

#include "cudalab/copy_roof.hpp"

#include "cudalab/counters.hpp"
#include "cudalab/kernel_resources.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/model/access_model.hpp"
#include "cudalab/timing.hpp"
#include "cudalab/trace/trace_record.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

struct counter_cell {
  // The reason of a point whose launch ran no kernel: nothing to count, though counters work.
  static constexpr const char* no_kernel_ran = "no kernel ran";
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
  // Whether --block (config.block) is the block its kernels launch: false for a copy or CPU
  // baseline, which has none, and a library that picks its own (variant::has_kernels,
  // variant::library_launch). A row without a GPU then shows no block, as a measured one does.
  bool block_from_config = true;
  timing_stats time;
  work_counts ideal;
  double gbps = 0;             // ideal bytes / median time
  double pct_of_roof = 0;      // gbps / the copy roof's (copy_roof.hpp), in percent
  copy_roof roof;              // the run's copy roof, both of its copies
  double payload_gbps = 0;     // the problem's own bytes (ideal.payload()) / median time
  verify_result verification;  // the result against the CPU reference
  // Canary words after the outputs that the launches overwrote, where the variant kept a band
  // (prepared_variant::words_overwritten_past_outputs).
  std::optional<std::size_t> overwritten_past_outputs;
  std::optional<model::access_counts> predicted;
  counter_cell counters;
  phase_times phases;
  std::vector<kernel_resources> resources;  // variant::resources, main kernel first
  std::optional<trace_cell> trace;          // only when the run was traced
  // The hardware's SASS-level counts per instruction, beside the trace's (run --lines with
  // counters permitted; sass_lines_run.hpp): the same record, measured by CUPTI.
  std::optional<trace_cell> hardware_lines;
};

}  // namespace cudalab
