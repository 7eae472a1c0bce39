#include "cudalab/sass_lines_run.hpp"

#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"
#include "cudalab/trace/trace_record.hpp"

#include <filesystem>

namespace cudalab {
trace_cell hardware_cell(const std::vector<trace::traced_launch>& launches) {
  trace_cell cell;
  if (launches.empty()) {
    cell.reason = "no kernel launched";
    return cell;
  }
  for (const trace::traced_launch& l : launches) {
    if (!l.error.empty()) {
      cell.reason = l.error;
      return cell;
    }
  }
  cell.available = true;
  cell.launches = launches;
  cell.counts = trace::traced_counts(launches);
  return cell;
}

void measure_hardware_lines(const run_request& request, std::vector<result_row>& rows,
                            const trace::tracer_install& install, const trace_workspace& workspace,
                            const std::function<void(const std::string&)>& progress) {
  std::size_t points = 0, done = 0;
  for (const result_row& row : rows) points += row.trace ? 1 : 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    result_row& row = rows[r];
    if (!row.trace) continue;
    ++done;
    if (!row.trace->available) {
      row.hardware_lines = trace_cell{false, "the point was not traced", {}, {}};
      continue;
    }
    const std::string label = trace::trace_point_label(row.variant_name, row.config.size,
                                                       row.config.block, row.config.param);
    std::vector<trace::traced_launch> measured;
    try {
      // Function 0's process also names the point's other functions; each gets its own process.
      for (std::size_t function = 0, functions = 1; function < functions; ++function) {
        if (progress)
          progress("hardware counts per line: point " + std::to_string(done) + " of " +
                   std::to_string(points) + ", kernel " + std::to_string(function + 1) +
                   " (CUPTI SASS metrics, a process a kernel)");
        const std::string stem =
            workspace.dir() + "/hardware-" + std::to_string(r) + "-" + std::to_string(function);
        std::filesystem::create_directories(stem);
        const std::string output = stem + "/lines.jsonl";
        run_injected_child(
            this_executable(), point_run_arguments(request, row, stem + "/run.json"),
            trace::sass_lines_child_environment(install, output, stem, label, function), workspace);
        std::vector<trace::traced_launch> written;
        for (trace::traced_launch& l : trace::read_trace_file(output))
          if (l.label == label) written.push_back(std::move(l));
        if (function == 0) functions = written.size();
        if (written.size() != functions)
          throw error("the point launched " + std::to_string(written.size()) +
                      " kernel functions in one process and " + std::to_string(functions) +
                      " in another");
        if (written.size() > function) measured.push_back(std::move(written[function]));
      }
      row.hardware_lines = hardware_cell(measured);
    } catch (const std::exception& e) {
      row.hardware_lines = trace_cell{false, e.what(), {}, {}};
    }
  }
}

}  // namespace cudalab
