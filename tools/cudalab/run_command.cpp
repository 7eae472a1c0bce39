// `cudalab run <lab>`: prepare, time, verify and measure a lab's variants; one table.
#include "commands.hpp"
#include "options.hpp"
#include "output_file.hpp"

#include "cudalab/check.hpp"
#include "cudalab/cli_values.hpp"
#include "cudalab/device.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"
#include "cudalab/runner.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace cudalab::tool {
namespace {

std::vector<const variant*> pick_variants(const lab& l, const std::string& list) {
  std::vector<const variant*> picked;
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    const std::string name = list.substr(start, comma - start);
    const variant* v = l.find(name);
    if (!v) {
      std::string known;
      for (const auto& x : l.variants) known += (known.empty() ? "" : ", ") + x.name;
      throw usage_error("unknown variant '" + name + "' of " + l.id + " (variants: " + known + ")");
    }
    picked.push_back(v);
    start = comma + 1;
  }
  return picked;
}

}  // namespace

int run_command(const args& a) {
  po::options_description options("run options");
  std::string variants, sizes, blocks, sweep, metrics, format_text = "table", output, device_text = "0";
  std::string repeat_text = "20", warmup_text = "3";
  std::string view_text = "default", details;
  options.add_options()
      ("lab", po::value<std::string>(), "the lab: 01-thread-indexing, 04, coalescing, ...")
      ("variant,v", po::value(&variants), "variants to run, comma-separated (default: all)")
      ("size,n", po::value(&sizes), "problem size(s): 1048576, 1M, 2^20, lists 1M,4M, ranges 2^10..2^20 (doubling)")
      ("block,b", po::value(&blocks), "threads per block: 256, lists, ranges 32..1024 (doubling)")
      ("sweep,s", po::value(&sweep), "sweep parameter values for sweep variants (offset, stride): 0..32, 1,2,4")
      ("repeat,r", po::value(&repeat_text), "timed repeats after warm-up; the median is reported (default 20)")
      ("warmup,w", po::value(&warmup_text), "untimed launches before timing (default 3)")
      ("metrics,m", po::value(&metrics), "metric set (memory, shared, divergence, dram, all) or a,b,c")
      ("no-counters", "skip hardware counters (for running under nsys or ncu)")
      ("format,f", po::value(&format_text), "table, csv or json")
      ("view", po::value(&view_text), "the table: default (headline counters, 120 columns) or full (every column)")
      ("details", po::value(&details), "list one variant's every metric: measured, predicted, what it means")
      ("output,o", po::value(&output), "write the report to FILE (atomically) instead of stdout; .csv/.json pick the format")
      ("device,d", po::value(&device_text), "CUDA device index (default 0)");
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!parse_options(a, "cudalab run <lab> [options]", options, positional, vm)) return exit_ok;
  if (!vm.count("lab")) throw usage_error("run needs a lab: cudalab run 04-coalescing (cudalab list shows them)");

  // Validate everything before touching the GPU.
  const std::string lab_name = vm["lab"].as<std::string>();
  const lab* l = find_lab(lab_name);
  if (!l) throw usage_error("unknown lab '" + lab_name + "' (cudalab list shows them)");
  run_request request;
  request.which = l;
  if (vm.count("variant")) request.variants = pick_variants(*l, variants);
  if (vm.count("size"))
    for (std::size_t s : parse_count_list("--size", sizes, range_step::doubling)) request.sizes.push_back(s);
  if (vm.count("block"))
    for (std::size_t b : parse_count_list("--block", blocks, range_step::doubling)) {
      if (b > 1024) throw usage_error("--block '" + std::to_string(b) + "': at most 1024 threads a block");
      request.blocks.push_back(static_cast<int>(b));
    }
  if (vm.count("sweep"))
    for (std::size_t p : parse_count_list("--sweep", sweep, range_step::unit, true))
      request.sweep.push_back(static_cast<long>(p));
  request.repeat = parse_int_option("--repeat", repeat_text, 1, 100000);
  request.warmup = parse_int_option("--warmup", warmup_text, 0, 1000);
  request.counters = !vm.count("no-counters");
  if (vm.count("metrics")) {
    if (!request.counters) throw usage_error("--metrics and --no-counters contradict each other");
    request.metrics = resolve_metrics(metrics);
  }
  // --output out.csv / out.json pick their format unless --format says otherwise.
  if (!vm.count("format") && vm.count("output")) {
    const auto dot = output.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : output.substr(dot + 1);
    if (ext == "csv" || ext == "json") format_text = ext;
  }
  report_options report;
  report.format = parse_output_format(format_text);
  report.view = parse_report_view(view_text);
  if (vm.count("details")) {
    if (vm.count("view")) throw usage_error("--details and --view: pick one");
    const auto picked = pick_variants(*l, details);
    if (picked.size() != 1) throw usage_error("--details '" + details + "': one variant");
    const variant* shown = picked.front();
    if (!request.variants.empty() &&
        std::find(request.variants.begin(), request.variants.end(), shown) == request.variants.end())
      throw usage_error("--details " + details + ": not among the variants of --variant");
    request.variants = {shown};
    report.view = report_view::details;
    report.details_variant = details;
  }
  if (report.format != output_format::table && (vm.count("view") || vm.count("details")))
    throw usage_error("--view and --details shape the table; --format " + format_text +
                      " carries every column");
  request.device = parse_int_option("--device", device_text, 0, 1 << 20);
  std::optional<atomic_output> file;
  if (vm.count("output")) file.emplace(output);

  std::string why;
  request.gpu = cuda_device_count(&why) > 0;
  report_context context;
  context.which = l;
  if (request.gpu) {
    const device_facts facts = query_device(request.device);
    context.device = facts.name + " (sm_" + std::to_string(facts.cc_major) + std::to_string(facts.cc_minor) + ")";
  } else {
    context.counters_note = "no GPU";
  }
  // Rows print as a whole table at the end; show progress on stderr for long sweeps.
  const auto rows = run_lab(request);
  if (request.gpu) context.copy_gbps = measured_copy_gbps(request.device);
  if (request.gpu && !rows.empty() && !rows.front().counters.available && request.counters) {
    for (const auto& r : rows)
      if (r.counters.reason != "no kernels (library call)") {
        context.counters_note = r.counters.reason;
        break;
      }
  }
  std::ostringstream text;
  write_report(text, rows, report, context);
  if (file) {
    file->commit(text.str());
    std::cerr << "cudalab: wrote " << rows.size() << " rows to " << file->path() << "\n";
  } else {
    std::cout << text.str();
  }

  if (l->notes)
    for (const auto& line : l->notes()) std::cerr << "cudalab: note: " << l->id << ": " << line << "\n";
  if (!request.gpu) {
    std::cerr << "cudalab: no CUDA device (" << why << "): the table shows the access model's "
              << "predictions only; time, bandwidth, verification and counters need a GPU.\n"
              << "  fix: run on a machine with an NVIDIA GPU and driver (cudalab doctor checks)\n";
    return exit_no_gpu;
  }
  int code = exit_ok;
  for (const auto& r : rows) {
    if (!r.check.ok && r.role != variant_role::buggy) {
      std::cerr << "cudalab: " << r.lab_id << "/" << r.variant_name << " FAILED verification: "
                << r.check.detail << "\n";
      code = exit_failure;
    }
    if (const auto bad = model_mismatches(r); !bad.empty()) {
      std::cerr << "cudalab: MODEL MISMATCH in " << r.lab_id << "/" << r.variant_name << ":";
      for (const auto& k : compare_with_model(r))
        if (!k.within) std::cerr << " " << k.metric << " measured " << k.measured << " predicted " << k.predicted << ";";
      std::cerr << "\n";
      if (code == exit_ok) code = exit_mismatch;
    }
    if (const auto outside = band_outliers(r); !outside.empty()) {
      std::cerr << "cudalab: note: " << r.lab_id << "/" << r.variant_name
                << " shared-memory counters above the model's band:";
      for (const auto& k : compare_with_model(r))
        if (!k.within && k.exactness == metric_exactness::banded) std::cerr << " " << k.metric << " measured " << k.measured << " predicted " << k.predicted << ";";
      std::cerr << "\n";
    }
  }
  return code;
}

}  // namespace cudalab::tool
