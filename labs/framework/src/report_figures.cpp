#include "cudalab/report_figures.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/model_verdict.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace cudalab {
namespace {

using value = std::optional<double>;

value measured_metric(const result_row& row, const std::string& name) {
  if (!row.counters.available) return std::nullopt;
  return row.counters.get(name);
}

// The model's prediction of a catalogue metric, where the catalogue holds the metric to it.
value predicted_metric(const result_row& row, const std::string& name) {
  const metric_info* info = find_metric(name);
  if (!row.predicted || !info || !info->held_to_model()) return std::nullopt;
  return info->model(*row.predicted);
}

value quotient(value a, value b) {
  if (!a || !b || *b == 0) return std::nullopt;
  return *a / *b;
}

value sum(value a, value b) {
  if (!a || !b) return std::nullopt;
  return *a + *b;
}

// A figure's name and how it is shown; what it is computed from is set after.
figure described(std::string name, std::string header, std::string unit, std::string meaning,
                 std::vector<std::string> inputs, int decimals = 0, std::string suffix = "") {
  figure f;
  f.inputs = std::move(inputs);
  f.name = std::move(name);
  f.header = std::move(header);
  f.unit = std::move(unit);
  f.meaning = std::move(meaning);
  f.decimals = decimals;
  f.suffix = std::move(suffix);
  return f;
}

// Reads a catalogue metric of a row: measured_metric or predicted_metric.
using metric_reader = value (*)(const result_row&, const std::string&);

// The measured and the predicted value by the same formula(row, read), read giving the measured
// or the predicted metrics of the row.
template <class Formula>
void measured_and_predicted(figure& f, Formula formula) {
  f.measured = [formula](const result_row& row) { return formula(row, measured_metric); };
  f.predicted = [formula](const result_row& row) { return formula(row, predicted_metric); };
}

// A figure the model does not predict.
template <class Measure>
void measured_only(figure& f, Measure measure) {
  f.measured = measure;
  f.predicted = [](const result_row&) -> value { return std::nullopt; };
}

figure catalogue_figure(const metric_info& info) {
  figure f = described(info.short_name, info.column_header(), info.unit, info.meaning,
                       {info.short_name}, is_quotient(info) ? 2 : 0);  // threads/instruction, %
  // Only what the model is held to (predicted_metric): a count it gives for another metric
  // (LDS instructions without the predicated-off ones) is not a prediction of this counter.
  measured_and_predicted(f, [name = info.short_name](const result_row& row, metric_reader read) {
    return read(row, name);
  });
  return f;
}

figure sectors_per_request(const std::string& side) {
  const std::string sectors = side + "_sectors", requests = side + "_requests";
  figure f =
      described(side + "_sectors_per_request", side + " sect/req", "sectors/request",
                std::string("32-byte sectors each global ") + (side == "ld" ? "load" : "store") +
                    " request touched: 4 when a warp's 32 lanes move 128 consecutive "
                    "bytes, 32 when every lane needs a sector of its own",
                {sectors, requests}, 2);
  measured_and_predicted(f, [=](const result_row& row, metric_reader read) {
    return quotient(read(row, sectors), read(row, requests));
  });
  return f;
}

figure threads_launched_per_needed() {
  figure f = described("threads_launched_per_needed", "launched/needed", "threads/thread",
                       "threads launched over threads that have an element to compute: above 1 "
                       "some idle, below 1 some elements are never computed",
                       {}, 4, "x");
  f.tells_apart_from_one = true;
  // The launch, not a counter: known from the point that ran or, without a GPU, from the host's
  // own launch arithmetic (variant::host_launch).
  measured_only(f, [](const result_row& row) -> value {
    if (row.shape.threads_needed == 0) return std::nullopt;
    return static_cast<double>(row.shape.threads_launched()) /
           static_cast<double>(row.shape.threads_needed);
  });
  return f;
}

figure shared_conflicts() {
  figure f = described("shared_conflicts", "bank confl", "conflicts",
                       "shared-memory bank conflicts of loads and stores together: wavefronts "
                       "beyond the one each access needs when its lanes hit distinct banks",
                       {"shared_ld_conflicts", "shared_st_conflicts"});
  measured_and_predicted(f, [](const result_row& row, metric_reader read) {
    return sum(read(row, "shared_ld_conflicts"), read(row, "shared_st_conflicts"));
  });
  return f;
}

figure dram_per_ideal() {
  figure f = described("dram_per_ideal", "DRAM/ideal", "bytes/byte",
                       "bytes read and written in device memory over the fewest bytes the data "
                       "layout must move: 1.00x when nothing travels twice",
                       {"dram_read_bytes"}, 2, "x");
  measured_only(f, [](const result_row& row) -> value {
    const value read = measured_metric(row, "dram_read_bytes");
    if (!read || row.ideal.bytes <= 0) return std::nullopt;
    return (*read + measured_metric(row, "dram_write_bytes").value_or(0)) / row.ideal.bytes;
  });
  return f;
}

// Register reuse: shared-memory load instructions a multiply-add, both as warp instructions,
// over the product's n^3 multiply-adds (flops / 2 / 32). A value read from shared memory into a
// register and used by r multiply-adds makes the ratio fall by r.
figure lds_per_fma() {
  figure f = described(
      "lds_per_fma", "LDS/FMA", "shared load instructions per multiply-add (warp instructions)",
      "shared-memory load instructions (LDS, any width) per useful multiply-add instruction: "
      "falls as each value loaded into a register feeds more multiply-adds",
      {"shared_ld_inst"}, 3);
  measured_and_predicted(f, [](const result_row& row, metric_reader read) -> value {
    const value lds = read(row, "shared_ld_inst");
    if (!lds || row.ideal.flops <= 0) return std::nullopt;
    return *lds / (row.ideal.flops / 64.0);
  });
  return f;
}

std::vector<figure> make_derived_figures() {
  return {threads_launched_per_needed(),
          sectors_per_request("ld"),
          sectors_per_request("st"),
          shared_conflicts(),
          dram_per_ideal(),
          lds_per_fma()};
}

const std::vector<figure>& all_figures() {
  static const std::vector<figure> figures = [] {
    std::vector<figure> all = derived_figures();
    for (const auto& info : metric_catalogue()) all.push_back(catalogue_figure(info));
    return all;
  }();
  return figures;
}

}  // namespace

const std::vector<figure>& derived_figures() {
  static const std::vector<figure> figures = make_derived_figures();
  return figures;
}

const figure* find_figure(std::string_view name) {
  for (const auto& f : all_figures())
    if (f.name == name) return &f;
  return nullptr;
}

const std::vector<std::string>& default_headline_figures() {
  static const std::vector<std::string> names{"ld_sectors_per_request", "st_sectors_per_request",
                                              "dram_per_ideal"};
  return names;
}

std::vector<std::string> collected_metric_names(const std::vector<result_row>& rows) {
  const auto collected = [](const result_row& row, const std::string& cupti) {
    return row.counters.available &&
           (row.counters.totals.count(cupti) > 0 || row.counters.missing.count(cupti) > 0);
  };
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const auto& info : metric_catalogue())
    for (const auto& row : rows)
      if (collected(row, info.key()) && seen.insert(info.short_name).second)
        names.push_back(info.short_name);
  for (const auto& row : rows) {
    if (!row.counters.available) continue;
    for (const auto& entry : row.counters.totals)
      if (!find_metric(entry.first) && seen.insert(entry.first).second)
        names.push_back(entry.first);
    for (const auto& entry : row.counters.missing)
      if (!find_metric(entry.first) && seen.insert(entry.first).second)
        names.push_back(entry.first);
  }
  return names;
}

std::string missing_reason(const result_row& row, const figure& f) {
  if (!row.counters.available) return "";
  for (const auto& input : f.inputs) {
    // A derived metric is missing where one of its terms is.
    for (const std::string& cupti :
         find_metric(input) ? resolve_metrics(input) : std::vector<std::string>{input}) {
      const auto it = row.counters.missing.find(cupti);
      if (it != row.counters.missing.end()) return it->second;
    }
  }
  return "";
}

bool differs_from_model(const result_row& row, const figure& f) {
  const auto checks = compare_with_model(row);
  return std::any_of(checks.begin(), checks.end(), [&](const metric_check& k) {
    return !k.within && std::find(f.inputs.begin(), f.inputs.end(), k.metric) != f.inputs.end();
  });
}

}  // namespace cudalab
