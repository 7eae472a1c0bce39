// Rows for the report tests, built the way the runner builds them: the access model's counts
// for an array-of-float3 kernel at 2^20 elements, and hardware counters that agree with them
// unless a test changes one.
#pragma once

#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"
#include "cudalab/runner.hpp"

#include <sstream>
#include <string>
#include <vector>

namespace cudalab::report_samples {

inline void set_counter(result_row& row, const char* short_name, double value) {
  row.counters.totals[find_metric(short_name)->key()] = value;
}

inline result_row aos_float3_row(double measured_ld_sectors) {
  result_row row;
  row.lab_id = "04-coalescing";
  row.variant_name = "aos_float3";
  row.role = variant_role::naive;
  row.config = {1 << 20, 256, 0};
  row.measured = true;
  row.shape = {4096, 1, 256, 1, 1 << 20};
  row.time = {0.5, 0.4, 0.6, 20};
  row.ideal = {12.0 * (1 << 20), 0};
  row.gbps = 25.2;
  row.pct_of_roof = 0.8;
  row.verification = {true, "exact"};
  model::access_counts p;
  p.global_ld_requests = 98304;
  p.global_ld_sectors = 1179648;
  p.global_ld_bytes = 98304u * 128u;
  row.predicted = p;
  row.counters.available = true;
  set_counter(row, "ld_requests", 98304);
  set_counter(row, "ld_sectors", measured_ld_sectors);
  return row;
}

// The same row where no GPU ran it: predictions only.
// What the runner queries of a kernel for the registers and occupancy columns, on an SM of 2,048
// threads.
inline kernel_resources resources_of(const char* kernel, int registers, int block_threads,
                                     int blocks_per_sm) {
  kernel_resources k;
  k.kernel = kernel;
  k.registers = registers;
  k.block_threads = block_threads;
  k.blocks_per_sm = blocks_per_sm;
  k.max_threads_per_sm = 2048;
  return k;
}

inline result_row predicted_only(result_row row) {
  row.measured = false;
  row.shape = {};
  row.time = {};
  row.gbps = row.pct_of_roof = 0;
  row.verification = {false, "n/a (no GPU)"};
  row.counters = {};
  row.counters.reason = "no GPU";
  return row;
}

// What write_report prints of `rows`, as a string.
inline std::string written_report(const std::vector<result_row>& rows,
                                  const report_options& options, const report_context& context) {
  std::ostringstream out;
  write_report(out, rows, options, context);
  return out.str();
}

}  // namespace cudalab::report_samples
