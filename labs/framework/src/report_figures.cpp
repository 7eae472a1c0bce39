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

figure catalogue_figure(const metric_info& info) {
  figure f;
  f.name = info.short_name;
  f.header = info.column_header();
  f.unit = info.unit;
  f.meaning = info.meaning;
  f.decimals = is_quotient(info) ? 2 : 0;  // threads/instruction, %
  f.inputs = {info.short_name};
  const std::string name = info.short_name;
  f.measured = [name](const result_row& row) { return measured_metric(row, name); };
  // Only what the model is held to: a count it gives for another metric (LDS instructions
  // without the predicated-off ones) is not a prediction of this counter.
  f.predicted = [name](const result_row& row) { return predicted_metric(row, name); };
  return f;
}

figure sectors_per_request(const std::string& side) {
  const std::string sectors = side + "_sectors", requests = side + "_requests";
  figure f;
  f.name = side + "_sectors_per_request";
  f.header = side + " sect/req";
  f.unit = "sectors/request";
  f.meaning = std::string("32-byte sectors each global ") + (side == "ld" ? "load" : "store") +
              " request touched: 4 when a warp's 32 lanes move 128 consecutive bytes, 32 "
              "when every lane needs a sector of its own";
  f.decimals = 2;
  f.inputs = {sectors, requests};
  f.measured = [=](const result_row& row) {
    return quotient(measured_metric(row, sectors), measured_metric(row, requests));
  };
  f.predicted = [=](const result_row& row) {
    return quotient(predicted_metric(row, sectors), predicted_metric(row, requests));
  };
  return f;
}

std::vector<figure> make_derived_figures() {
  std::vector<figure> figures;
  {
    figure f;
    f.name = "threads_launched_per_needed";
    f.header = "launched/needed";
    f.unit = "threads/thread";
    f.meaning =
        "threads launched over threads that have an element to compute: above 1 some "
        "idle, below 1 some elements are never computed";
    f.decimals = 4;
    f.suffix = "x";
    f.measured = [](const result_row& row) -> value {
      if (!row.measured || row.shape.threads_needed == 0) return std::nullopt;
      return static_cast<double>(row.shape.threads_launched()) /
             static_cast<double>(row.shape.threads_needed);
    };
    f.predicted = [](const result_row&) -> value { return std::nullopt; };
    figures.push_back(std::move(f));
  }
  figures.push_back(sectors_per_request("ld"));
  figures.push_back(sectors_per_request("st"));
  {
    figure f;
    f.name = "shared_conflicts";
    f.header = "bank confl";
    f.unit = "conflicts";
    f.meaning =
        "shared-memory bank conflicts of loads and stores together: wavefronts beyond "
        "the one each access needs when its lanes hit distinct banks";
    f.inputs = {"shared_ld_conflicts", "shared_st_conflicts"};
    f.measured = [](const result_row& row) {
      return sum(measured_metric(row, "shared_ld_conflicts"),
                 measured_metric(row, "shared_st_conflicts"));
    };
    f.predicted = [](const result_row& row) {
      return sum(predicted_metric(row, "shared_ld_conflicts"),
                 predicted_metric(row, "shared_st_conflicts"));
    };
    figures.push_back(std::move(f));
  }
  {
    figure f;
    f.name = "dram_per_ideal";
    f.header = "DRAM/ideal";
    f.unit = "bytes/byte";
    f.meaning =
        "bytes read and written in device memory over the fewest bytes the data "
        "layout must move: 1.00x when nothing travels twice";
    f.decimals = 2;
    f.suffix = "x";
    f.inputs = {"dram_read_bytes"};
    f.measured = [](const result_row& row) -> value {
      const value read = measured_metric(row, "dram_read_bytes");
      if (!read || row.ideal.bytes <= 0) return std::nullopt;
      return (*read + measured_metric(row, "dram_write_bytes").value_or(0)) / row.ideal.bytes;
    };
    f.predicted = [](const result_row&) -> value { return std::nullopt; };
    figures.push_back(std::move(f));
  }
  {
    // Register reuse: shared-memory load instructions a multiply-add, both as warp
    // instructions, over the product's n^3 multiply-adds (flops / 2 / 32). A value read from
    // shared memory into a register and used by r multiply-adds makes the ratio fall by r.
    figure f;
    f.name = "lds_per_fma";
    f.header = "LDS/FMA";
    f.unit = "shared load instructions per multiply-add (warp instructions)";
    f.meaning =
        "shared-memory load instructions (LDS, any width) per useful multiply-add instruction: "
        "falls as each value loaded into a register feeds more multiply-adds";
    f.decimals = 3;
    f.inputs = {"shared_ld_inst"};
    const auto per_fma = [](const result_row& row, value lds) -> value {
      if (!lds || row.ideal.flops <= 0) return std::nullopt;
      return *lds / (row.ideal.flops / 64.0);
    };
    f.measured = [per_fma](const result_row& row) {
      return per_fma(row, measured_metric(row, "shared_ld_inst"));
    };
    f.predicted = [per_fma](const result_row& row) {
      return per_fma(row, predicted_metric(row, "shared_ld_inst"));
    };
    figures.push_back(std::move(f));
  }
  return figures;
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
