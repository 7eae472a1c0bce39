// The details view (`--details VARIANT`): each row of one variant as a vertical list, the way
// Nsight Compute prints a section: metric | unit | measured | predicted | what it means.
// Meanings wrap so that a line stays within table_width columns.
#include "report_writers.hpp"

#include "cudalab/cell_format.hpp"
#include "cudalab/model_verdict.hpp"
#include "row_cells.hpp"
#include "text_table.hpp"

#include "cudalab/check.hpp"
#include "cudalab/metrics.hpp"

#include <algorithm>

namespace cudalab {
namespace {

struct entry {
  std::string metric, unit, measured, predicted, meaning;
};

std::string measured_text(const result_row& row, const figure& f) {
  if (const auto v = f.measured(row))
    return cells::figure_value(f, *v, false) + (differs_from_model(row, f) ? " !" : "");
  if (const std::string why = missing_reason(row, f); !why.empty()) return "n/a (" + why + ")";
  return row.counters.available || f.inputs.empty() ? "-" : "n/a";
}

std::string predicted_text(const result_row& row, const figure& f) {
  const auto v = f.predicted(row);
  return v ? cells::figure_value(f, *v, false) : "-";
}

bool has_anything(const result_row& row, const figure& f) {
  return f.measured(row) || f.predicted(row) || !missing_reason(row, f).empty();
}

std::vector<entry> entries_of(const result_row& row, const report_context& context) {
  std::vector<entry> list;
  const bool timed = row.measured && row.time.median_ms > 0;
  const auto when_timed = [&](const std::string& text) {
    return timed ? text : std::string("n/a");
  };
  list.push_back({"time", "ms", when_timed(cells::fixed(row.time.median_ms, 4)), "-",
                  timed ? "median of " + std::to_string(row.time.repeats) + " timed runs (min " +
                              cells::fixed(row.time.min_ms, 4) + ", max " +
                              cells::fixed(row.time.max_ms, 4) + " ms)"
                        : std::string("the median of the timed runs, on a GPU")});
  list.push_back({"bandwidth", "GB/s", when_timed(cells::fixed(row.gbps, 1)), "-",
                  "the fewest bytes this layout must move (" +
                      cells::with_separators(row.ideal.bytes) + ") over the median time"});
  if (row.ideal.payload_bytes > 0)
    list.push_back({"payload bandwidth", "GB/s", when_timed(cells::fixed(row.payload_gbps, 1)), "-",
                    "the problem's own bytes (" + cells::with_separators(row.ideal.payload_bytes) +
                        "), without the layout's padding, over the median time"});
  list.push_back(
      {"% of copy roof", "%", when_timed(cells::fixed(row.pct_of_roof, 1)), "-",
       "bandwidth over the faster of cudaMemcpy and a copy kernel, device to device" +
           (context.roof.gbps() > 0 ? " (" + cells::fixed(context.roof.gbps(), 0) + " GB/s)"
                                    : std::string())});
  if (row.ideal.flops > 0)
    list.push_back(
        {"throughput", "TFLOP/s",
         when_timed(cells::fixed(row.ideal.flops / (row.time.median_ms * 1e-3) / 1e12, 3)), "-",
         "the work's floating-point operations over the median time"});
  if (row.shape.known()) {
    list.push_back({"grid", "blocks",
                    std::to_string(row.shape.grid_x) + " x " + std::to_string(row.shape.grid_y),
                    "-", "blocks launched in x and y"});
    list.push_back({"block", "threads",
                    std::to_string(row.shape.block_x) + " x " + std::to_string(row.shape.block_y),
                    "-", "threads a block in x and y"});
  }
  if (row.measured) {
    // Where the run's time went on the host, phase by phase (the NVTX phases of the same names).
    const auto phase = [&](const char* name, double ms, const std::string& meaning) {
      list.push_back({name, "ms", cells::fixed(ms, 1), "-", meaning});
    };
    phase("alloc", row.phases.alloc_ms, "device buffers and host inputs");
    phase("h2d", row.phases.h2d_ms, "inputs copied to the device");
    phase("kernel", row.phases.kernel_ms, "warm-up and timed runs, resets between them included");
    phase("d2h", row.phases.d2h_ms, "results copied back to the host");
    phase("verify", row.phases.verify_ms, "the CPU reference and the comparison");
  }
  for (const auto& k : row.resources) {
    // Each kernel's compiled resources and theoretical occupancy (variant::resources).
    list.push_back({k.kernel + " registers", "a thread", std::to_string(k.registers), "-",
                    "registers the compiler gave each thread"});
    list.push_back({k.kernel + " local", "bytes", std::to_string(k.local_bytes), "-",
                    k.spills() ? "local memory a thread: the compiler SPILLED registers"
                               : "local memory a thread: 0, no spills"});
    list.push_back({k.kernel + " shared", "bytes", std::to_string(k.shared_bytes), "-",
                    "shared memory a block"});
    list.push_back({k.kernel + " occupancy", "%", cells::fixed(k.occupancy_pct(), 1), "-",
                    std::to_string(k.blocks_per_sm) + " blocks of " +
                        std::to_string(k.block_threads) +
                        " threads an SM (registers, shared memory and threads allowing)"});
  }
  list.push_back({"verification", "", cells::verification(row, false), "-",
                  row.verification.detail.empty() ? "the result against the CPU reference"
                                                  : row.verification.detail});
  list.push_back({"model verdict", "", cells::model_verdict_in_full(row), "-",
                  "every count the model is held to equals it (shared memory through the "
                  "SASS-level counters)"});
  for (const auto& f : derived_figures())
    if (has_anything(row, f))
      list.push_back({f.header, f.unit, measured_text(row, f), predicted_text(row, f), f.meaning});
  for (const auto& info : metric_catalogue()) {
    const figure& f = *find_figure(info.short_name);
    if (has_anything(row, f))
      list.push_back({f.name, f.unit, measured_text(row, f), predicted_text(row, f), f.meaning});
  }
  if (row.counters.available) {
    for (const auto& [cupti, v] : row.counters.totals)
      if (!find_metric(cupti))
        list.push_back({cupti, "", cells::fixed(v, 2), "-", "outside the catalogue"});
    for (const auto& [cupti, why] : row.counters.missing)
      if (!find_metric(cupti))
        list.push_back({cupti, "", "n/a (" + why + ")", "-", "outside the catalogue"});
  }
  return list;
}

void write_row(std::ostream& out, const result_row& row, const report_context& context) {
  out << cells::variant_label(row) << " (" << to_string(row.role) << "), "
      << cells::with_separators(static_cast<double>(row.config.size)) << " "
      << (context.which ? context.which->size_unit : std::string("elements")) << ", "
      << row.config.block << " threads a block\n";
  const auto list = entries_of(row, context);
  std::vector<std::vector<std::string>> cells;
  // A unit longer than a column allows (a derived figure's "shared load instructions per
  // multiply-add") opens its meaning instead, so the table keeps to table_width.
  constexpr std::size_t unit_width = 24;
  std::vector<std::string> meanings;
  for (const auto& e : list) {
    const bool long_unit = e.unit.size() > unit_width;
    cells.push_back({"  " + e.metric, long_unit ? "" : e.unit, e.measured, e.predicted});
    meanings.push_back(long_unit ? "(" + e.unit + ") " + e.meaning : e.meaning);
  }
  const auto lines =
      layout_table({{"  metric", true}, {"unit", true}, {"measured"}, {"predicted"}}, cells);
  const std::size_t indent = widest_line(lines) + 2;
  const std::size_t room = table_width > indent + 30 ? table_width - indent : 30;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string meaning = i == 0 ? "what it means" : meanings[i - 1];
    const auto wrapped = wrap_words(meaning, room);
    for (std::size_t k = 0; k < wrapped.size(); ++k) {
      const std::string& left = k == 0 ? lines[i] : std::string();
      out << left << std::string(indent - left.size(), ' ') << wrapped[k] << "\n";
    }
  }
}

}  // namespace

void write_details_view(std::ostream& out, const std::vector<result_row>& rows,
                        const report_context& context, const std::string& variant) {
  if (!context.device.empty())
    out << "device: " << context.device << "   " << context.roof.describe() << "\n";
  if (context.which)
    if (const auto* v = context.which->find(variant))
      for (const std::string& line : wrap_words(variant + ": " + v->lesson, table_width))
        out << line << "\n";
  bool any = false;
  for (const auto& row : rows) {
    if (row.variant_name != variant) continue;
    out << (any ? "\n" : "");
    write_row(out, row, context);
    any = true;
  }
  if (!any) throw usage_error("--details " + variant + ": no row of that variant was run");
  if (!context.counters_note.empty()) out << "counters: n/a (" << context.counters_note << ")\n";
}

}  // namespace cudalab
