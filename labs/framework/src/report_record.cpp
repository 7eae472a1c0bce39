#include "report_record.hpp"

#include "cudalab/model_verdict.hpp"
#include "cudalab/report_figures.hpp"
#include "cudalab/trace_run.hpp"

#include "row_cells.hpp"

#include <algorithm>

namespace cudalab {

std::vector<record_field> record_of(const result_row& row,
                                    const std::vector<std::string>& collected) {
  std::vector<record_field> f;
  const auto text = [&](std::string name, std::string value) {
    f.push_back({std::move(name), true, std::move(value), std::nullopt, 0});
  };
  const auto number = [&](std::string name, std::optional<double> value, int decimals = 6) {
    f.push_back({std::move(name), false, "", value, decimals});
  };
  const auto when_measured = [&](double v) {
    return row.measured ? std::optional<double>(v) : std::nullopt;
  };
  const auto as_double = [](std::size_t v) { return static_cast<double>(v); };
  const auto when_launched = [&](double v) {
    return row.shape.known() ? std::optional<double>(v) : std::nullopt;
  };

  text("lab", row.lab_id);
  text("variant", row.variant_name);
  text("role", std::string(to_string(row.role)));
  text("sweep", row.sweep_name.value_or(""));
  number("param", static_cast<double>(row.config.param), 0);
  number("size", as_double(row.config.size), 0);
  const std::optional<long> threads = cells::block_threads(row);
  number("block", threads ? std::optional<double>(static_cast<double>(*threads)) : std::nullopt, 0);
  number("grid", when_launched(as_double(row.shape.grid_x * row.shape.grid_y)), 0);
  number("threads_launched", when_launched(as_double(row.shape.threads_launched())), 0);
  number("threads_needed", when_launched(as_double(row.shape.threads_needed)), 0);
  number("time_ms_median", when_measured(row.time.median_ms));
  number("time_ms_min", when_measured(row.time.min_ms));
  number("time_ms_max", when_measured(row.time.max_ms));
  number("repeats", when_measured(row.time.repeats), 0);
  number("ideal_bytes", row.ideal.bytes, 0);
  number("gbps", when_measured(row.gbps), 2);
  number("pct_of_copy_roof", when_measured(row.pct_of_roof), 2);
  // Both copies the roof is the faster of (copy_roof.hpp).
  number("copy_memcpy_gbps", when_measured(row.roof.memcpy_gbps), 1);
  number("copy_kernel_gbps", when_measured(row.roof.kernel_gbps), 1);
  number("payload_bytes", row.ideal.payload(), 0);
  number("payload_gbps", when_measured(row.payload_gbps), 2);
  // Arithmetic work (the matrix products): 0 flops for the memory-bound labs.
  number("flops", row.ideal.flops, 0);
  std::optional<double> tflops;
  if (row.measured && row.ideal.flops > 0 && row.time.median_ms > 0)
    tflops = row.ideal.flops / (row.time.median_ms * 1e-3) / 1e12;
  number("tflops", tflops, 4);
  text("verified", row.measured ? (row.verification.ok ? "ok" : "FAIL") : "n/a");
  text("verify_detail", row.verification.detail);
  text("counters", row.counters.from_trace  ? "from trace"
                   : row.counters.available ? "ok"
                                            : "n/a (" + row.counters.reason + ")");
  for (const auto& name : metrics_held_to_model()) {
    const figure& m = *find_figure(name);
    const int decimals = m.decimals > 0 ? 4 : 0;
    number(name + "_measured", m.measured(row), decimals);
    number(name + "_predicted", m.predicted(row), decimals);
  }
  for (const char* side : {"ld", "st"}) {
    const figure& per_request = *find_figure(std::string(side) + "_sectors_per_request");
    number(std::string(side) + "_sectors_per_request_measured", per_request.measured(row), 4);
    number(std::string(side) + "_sectors_per_request_predicted", per_request.predicted(row), 4);
  }
  // Transfer efficiency: useful bytes over the bytes of the sectors moved.
  std::optional<double> efficiency;
  if (row.predicted) {
    const auto& p = *row.predicted;
    const double sectors = static_cast<double>(p.global_ld_sectors + p.global_st_sectors);
    const double useful = static_cast<double>(p.global_ld_bytes + p.global_st_bytes);
    if (sectors > 0) efficiency = useful / (32.0 * sectors);
  }
  number("transfer_efficiency_predicted", efficiency, 4);
  for (const auto& name : collected) {
    if (std::find(metrics_held_to_model().begin(), metrics_held_to_model().end(), name) !=
        metrics_held_to_model().end())
      continue;
    number(name, row.counters.available ? row.counters.get(name) : std::nullopt, 4);
  }
  // The tracer's counts (run --trace); empty when the run was not traced.
  text("trace", !row.trace ? "" : row.trace->available ? "ok" : "n/a (" + row.trace->reason + ")");
  for (const auto& name : traced_metrics()) {
    std::optional<double> v;
    if (row.trace && row.trace->available) v = model_values(row.trace->counts).at(name);
    number("trace_" + name, v, 0);
  }
  std::string mismatches;
  for (const auto& m : model_mismatches(row)) mismatches += (mismatches.empty() ? "" : " ") + m;
  text("model_mismatch", mismatches);
  std::string missing;
  for (const auto& [cupti, why] : row.counters.missing)
    missing += (missing.empty() ? "" : "; ") + cupti + ": " + why;
  text("counters_missing", missing);
  // Host wall time of each phase (the NVTX phases of the same names): allocation and copies
  // against the kernel's own time.
  number("alloc_ms", when_measured(row.phases.alloc_ms), 3);
  number("h2d_ms", when_measured(row.phases.h2d_ms), 3);
  number("kernel_phase_ms", when_measured(row.phases.kernel_ms), 3);
  number("d2h_ms", when_measured(row.phases.d2h_ms), 3);
  number("verify_ms", when_measured(row.phases.verify_ms), 3);
  // The main kernel's resources (variant::resources), where the variant reports them.
  const kernel_resources* k = row.resources.empty() ? nullptr : &row.resources.front();
  const auto resource = [&](double v) { return k ? std::optional<double>(v) : std::nullopt; };
  text("kernel", k ? k->kernel : "");
  number("registers", resource(k ? k->registers : 0), 0);
  number("local_bytes", resource(k ? static_cast<double>(k->local_bytes) : 0), 0);
  number("blocks_per_sm", resource(k ? k->blocks_per_sm : 0), 0);
  number("occupancy_pct", resource(k ? k->occupancy_pct() : 0), 2);
  return f;
}

}  // namespace cudalab
