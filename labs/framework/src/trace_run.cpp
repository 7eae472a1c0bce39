#include "cudalab/trace_run.hpp"

#include "cudalab/check.hpp"
#include "cudalab/metrics.hpp"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <sstream>

namespace cudalab {
namespace {

std::string join(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : separator) + i;
  return out;
}

// What every run in a second process adds: counters off, one launch a point, no warm-up, the
// same device, its table as JSON in `output` (read back only for its failures).
void add_child_run_arguments(std::vector<std::string>& a, const run_request& request,
                             const std::string& output) {
  for (const char* fixed :
       {"--no-counters", "--warmup", "0", "--repeat", "1", "--format", "json", "--device"})
    a.push_back(fixed);
  a.push_back(std::to_string(request.device));
  a.push_back("--output");
  a.push_back(output);
}

}  // namespace

void attach_traces(std::vector<result_row>& rows, const std::vector<trace::traced_launch>& launches,
                   const std::string& missing) {
  std::map<std::string, std::vector<trace::traced_launch>> by_label;
  for (const auto& l : launches) by_label[l.label].push_back(l);
  for (result_row& row : rows) {
    trace_cell cell;
    const auto found = by_label.find(trace::trace_point_label(row.variant_name, row.config.size,
                                                              row.config.block, row.config.param));
    if (found == by_label.end()) {
      cell.reason = missing;
    } else {
      cell.launches = found->second;
      cell.available = true;
      for (const auto& l : cell.launches) {
        if (!l.error.empty()) {
          cell.available = false;
          cell.reason = l.error;
          break;
        }
        if (l.dropped > 0) {
          cell.available = false;
          cell.reason = std::to_string(l.dropped) + " accesses found the tracer's table full";
          break;
        }
      }
      if (cell.available) cell.counts = trace::traced_counts(cell.launches);
    }
    row.trace = std::move(cell);
  }
}

void counters_from_trace(result_row& row) {
  if (!row.trace || !row.trace->available) return;
  const auto values = model_values(row.trace->counts);
  counter_cell c;
  c.available = true;
  c.from_trace = true;
  c.reason = "from the trace";
  for (const auto& name : traced_metrics())
    if (const metric_info* m = find_metric(name)) c.totals[m->key()] = values.at(name);
  row.counters = std::move(c);
}

std::vector<std::string> traced_run_arguments(const run_request& request,
                                              const std::string& output) {
  std::vector<std::string> a = {"run", request.which->id};
  std::vector<std::string> names;
  if (request.variants.empty()) {
    for (const auto& v : request.which->variants)
      if (v.role != variant_role::exercise && v.role != variant_role::baseline)
        names.push_back(v.name);
  } else {
    for (const variant* v : request.variants)
      if (v->role != variant_role::baseline) names.push_back(v->name);
  }
  a.push_back("--variant");
  a.push_back(join(names, ","));
  const auto numbers = [](const auto& list) {
    std::vector<std::string> out;
    for (const auto& n : list) out.push_back(std::to_string(n));
    return join(out, ",");
  };
  if (!request.sizes.empty()) {
    a.push_back("--size");
    a.push_back(numbers(request.sizes));
  }
  if (!request.blocks.empty()) {
    a.push_back("--block");
    a.push_back(numbers(request.blocks));
  }
  if (request.sweep.full) {
    a.push_back("--sweep");
    a.push_back("full");
  } else if (!request.sweep.values.empty()) {
    std::vector<std::string> groups;
    for (const auto& [name, values] : request.sweep.values)
      groups.push_back((name.empty() ? "" : name + "=") + numbers(values));
    a.push_back("--sweep");
    a.push_back(join(groups, ","));
  }
  add_child_run_arguments(a, request, output);
  return a;
}

std::vector<std::string> point_run_arguments(const run_request& request, const result_row& row,
                                             const std::string& output) {
  std::vector<std::string> a = {"run",       request.which->id,
                                "--variant", row.variant_name,
                                "--size",    std::to_string(row.config.size)};
  // The block as the user gave it: without --block each variant takes its own default, as here.
  if (!request.blocks.empty()) {
    a.push_back("--block");
    a.push_back(std::to_string(row.config.block));
  }
  if (row.sweep_name) {
    a.push_back("--sweep");
    a.push_back(*row.sweep_name + "=" + std::to_string(row.config.param));
  }
  add_child_run_arguments(a, request, output);
  return a;
}

}  // namespace cudalab
