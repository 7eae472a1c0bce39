// `cudalab run <lab>`: prepare, time, verify and measure a lab's variants; one table.
#include "commands.hpp"
#include "error_text.hpp"
#include "options.hpp"
#include "output_file.hpp"
#include "progress_line.hpp"

#include "cli_values.hpp"
#include "cudalab/cell_format.hpp"
#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"
#include "cudalab/copy_roof.hpp"
#include "cudalab/device.hpp"
#include "cudalab/format_text.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/report.hpp"
#include "cudalab/runner.hpp"
#include "cudalab/sass_lines_run.hpp"
#include "cudalab/trace_child.hpp"
#include "cudalab/trace_lines.hpp"
#include "cudalab/trace_run.hpp"
#include "cudalab/user_text.hpp"
#include "grade_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

namespace cudalab::tool {
namespace {

// The variants named in `list`, the value of `option` (--variant or --details).
std::vector<const variant*> pick_variants(const lab& l, const std::string& list,
                                          const char* option) {
  std::vector<const variant*> picked;
  for (const std::string& name : split_list(option, list)) {
    const variant* v = l.find(name);
    if (!v) {
      std::string known;
      for (const auto& x : l.variants) known += (known.empty() ? "" : ", ") + x.name;
      std::string message = "unknown variant '" + shown(name) + "' of " + l.id;
      // The variants where the line stays within the tool's 120 columns ("cudalab: " first).
      const std::string listed = message + " (variants: " + known + ")";
      throw usage_error(listed.size() <= 120 - 9
                            ? listed
                            : message + " (cudalab list " + l.number() + " names its " +
                                  std::to_string(l.variants.size()) + " variants)");
    }
    picked.push_back(v);
  }
  return picked;
}

// --sweep: "full", a bare list ("0..32", every sweep variant takes the values in its range),
// or lists under a sweep's name ("offset=0..32,stride=1,2,4": an item without a name belongs to
// the name before it).
sweep_request parse_sweep(const lab& l, const std::string& text) {
  sweep_request request;
  const auto items = split_list("--sweep", text);
  if (items.size() == 1 && items.front() == "full") {
    request.full = true;
    return request;
  }
  std::vector<std::string> names;
  for (const auto& v : l.variants)
    if (v.sweep && std::find(names.begin(), names.end(), v.sweep->name) == names.end())
      names.push_back(v.sweep->name);
  std::map<std::string, std::string> lists;
  std::string group;
  for (const std::string& item : items) {
    std::string value = item;
    if (const auto eq = item.find('='); eq != std::string::npos) {
      group = item.substr(0, eq);
      value = item.substr(eq + 1);
      if (std::find(names.begin(), names.end(), group) == names.end()) {
        const std::string known = joined(names);
        throw usage_error("--sweep '" + shown(group) + "': " + l.id + " has no such sweep" +
                          (known.empty() ? "" : " (sweeps: " + known + ")"));
      }
      if (lists.count(group)) throw usage_error("--sweep: '" + group + "=' is given twice");
    }
    if (item == "full") throw usage_error("--sweep full: give it alone (--sweep full)");
    lists[group] += (lists[group].empty() ? "" : ",") + value;
  }
  for (const auto& [name, list] : lists) {
    const std::string option = name.empty() ? "--sweep" : "--sweep " + name;
    std::vector<long> values;
    for (std::size_t p : parse_count_list(option, list, range_step::unit, true)) {
      if (p > static_cast<std::size_t>(std::numeric_limits<long>::max()))
        throw usage_error(option + " '" + std::to_string(p) + "': too large");
      values.push_back(static_cast<long>(p));
    }
    request.values[name] = std::move(values);
  }
  return request;
}

// A --sweep that no selected variant uses is a mistake: say so instead of ignoring it. A bare
// list's values outside one sweep's range are noted, not silently dropped.
void check_sweep_is_used(const run_request& request) {
  std::vector<const variant*> variants = request.variants;
  if (variants.empty())
    for (const auto& v : request.which->variants) variants.push_back(&v);
  std::vector<std::string> sweeping;
  for (const variant* v : variants)
    if (v->sweep) sweeping.push_back(v->sweep->name);
  if (sweeping.empty())
    throw usage_error("--sweep: none of the selected variants of " + request.which->id +
                      " sweeps a parameter (cudalab list " + request.which->number() +
                      ": [sweep])");
  for (const auto& [name, values] : request.sweep.values)
    if (!name.empty() && std::find(sweeping.begin(), sweeping.end(), name) == sweeping.end())
      throw usage_error("--sweep " + name + "=...: no selected variant sweeps " + name);
}

// Values as consecutive runs, "0,33..4000" rather than every value, cut to about 60 characters.
std::string compact_values(const std::vector<long>& values) {
  std::string text;
  std::size_t shown_count = 0;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i;
    while (j + 1 < values.size() && values[j + 1] == values[j] + 1) ++j;
    std::string run = std::to_string(values[i]);
    if (j == i + 1) run += "," + std::to_string(values[j]);  // two neighbours: one by one
    if (j > i + 1) run += ".." + std::to_string(values[j]);
    if (text.size() + run.size() > 60) break;
    text += (text.empty() ? "" : ",") + run;
    shown_count = j + 1;
    i = j + 1;
  }
  if (shown_count < values.size()) text += ",... (" + std::to_string(values.size()) + " values)";
  return text;
}

// The notes for a bare --sweep list's values outside a variant's range, one line a variant;
// printed only once the run is known to be accepted.
std::vector<std::string> skipped_sweep_notes(const run_request& request) {
  std::vector<const variant*> variants = request.variants;
  if (variants.empty())
    for (const auto& v : request.which->variants) variants.push_back(&v);
  std::vector<std::string> notes;
  for (const variant* v : variants) {
    if (!v->sweep) continue;
    std::vector<long> dropped;
    sweep_values(*v, request.sweep, &dropped);
    if (!dropped.empty())
      notes.push_back("--sweep " + compact_values(dropped) + " is outside the " + v->sweep->name +
                      " range " + v->sweep->range_text() + " of " + v->name + ": " + v->name +
                      " skips it");
  }
  return notes;
}

// "  shared_st_conflicts  618,301 measured, 0 predicted": one indented line a metric, so a
// verdict stays readable in a terminal.
std::string comparison_line(const metric_check& k) {
  const auto number = [](double v) {
    return v == std::floor(v) ? cells::with_separators(v) : cells::fixed(v, 4);
  };
  return "  " + k.metric + "  " + number(k.measured) + " measured, " + number(k.predicted) +
         " predicted\n";
}

// Runs the request again in a second process under the memory tracer and attaches what it
// traced to `rows` (trace_run.hpp). The workspace holds the module code --lines reads.
void trace_rows(const run_request& request, std::vector<result_row>& rows,
                const trace::tracer_install& install, const trace_workspace& workspace,
                progress_line& progress) {
  const auto arguments = traced_run_arguments(request, workspace.dir() + "/traced-run.json");
  const auto variant_list = std::find(arguments.begin(), arguments.end(), "--variant");
  if (variant_list == arguments.end() || (variant_list + 1)->empty()) {
    attach_traces(rows, {}, "baselines are not traced");
    return;
  }
  progress.show("tracing " + request.which->id + " (Compute Sanitizer, one launch a point)");
  run_traced_child(this_executable(), arguments, install, workspace);
  progress.clear();
  attach_traces(rows, trace::read_trace_file(workspace.trace_file()),
                "not traced (a baseline, or no kernel launched)");
}

// "TRACE MISMATCH" lines: the trace is the binary's exact count, so any difference from the
// model on a traced metric, or from the counters on an exact (global) one, is a finding.
bool report_trace_mismatches(const std::vector<result_row>& rows) {
  bool any = false;
  for (const auto& r : rows) {
    if (!r.trace || !r.trace->available) continue;
    const auto traced = model_values(r.trace->counts);
    const bool counters = r.counters.available && !r.counters.from_trace;
    std::string lines;
    for (const auto& metric : traced_metrics()) {
      const double t = traced.at(metric);
      if (r.predicted && model_values(*r.predicted).at(metric) != t)
        lines += "  " + metric + "  " + cells::with_separators(t) + " traced, " +
                 cells::with_separators(model_values(*r.predicted).at(metric)) + " predicted\n";
      const metric_info* info = find_metric(metric);
      const auto measured = counters ? r.counters.get(metric) : std::nullopt;
      if (measured && info && info->exactness == metric_exactness::exact && *measured != t)
        lines += "  " + metric + "  " + cells::with_separators(t) + " traced, " +
                 cells::with_separators(*measured) + " counted\n";
    }
    if (lines.empty()) continue;
    std::cerr << "cudalab: TRACE MISMATCH in " << r.lab_id << "/" << r.variant_name
              << " (the traced binary differs from the access model or the counters):\n"
              << lines;
    any = true;
  }
  return any;
}

// The options as typed, before any is checked.
struct run_option_texts {
  std::string variants, sizes, blocks, sweep, metrics, output, details;
  std::string format = "table", device = "0", repeat = "20", warmup = "3", view = "default";
};

po::options_description run_options(run_option_texts& t) {
  po::options_description options("run options");
  auto add = options.add_options();
  add("lab", po::value<std::string>(), "the lab: 01-thread-indexing, 04, coalescing, ...");
  add("variant,v", po::value(&t.variants), "variants to run, comma-separated (default: all)");
  add("size,n", po::value(&t.sizes),
      "problem size(s): 1048576, 1M, 2^20, lists 1M,4M, ranges 2^10..2^20 (doubling)");
  add("block,b", po::value(&t.blocks), "threads per block: 256, lists, ranges 32..1024 (doubling)");
  add("sweep,s", po::value(&t.sweep),
      "sweep points: full (every value), offset=0..32,stride=1,2,4 (each sweep its own), "
      "or 0..32 (every sweep, within its range)");
  add("repeat,r", po::value(&t.repeat),
      "timed repeats after warm-up; the median is reported (default 20)");
  add("warmup,w", po::value(&t.warmup), "untimed launches before timing (default 3)");
  const std::string metrics_help = "metric set (" + metric_set_list() + ") or a,b,c";
  add("metrics,m", po::value(&t.metrics), metrics_help.c_str());
  add("no-counters", "skip hardware counters (for running under nsys or ncu)");
  add("trace",
      "also trace every variant once under the memory tracer (Compute Sanitizer API): model, "
      "trace and counters side by side (--view trace, the default with --trace)");
  add("lines",
      "each variant's memory accesses per source line, by waste: traced, and counted by the "
      "hardware (SASS-level counters, a process a kernel) where counters are permitted");
  add("format,f", po::value(&t.format), "table, csv or json");
  add("view", po::value(&t.view),
      "the table: default (headline counters, 120 columns) or full (every column)");
  add("details", po::value(&t.details),
      "list one variant's every metric: measured, predicted, what it means");
  add("output,o", po::value(&t.output),
      "write the report to FILE (atomically) instead of stdout; .csv/.json pick the format");
  add("device,d", po::value(&t.device), "CUDA device index (default 0)");
  return options;
}

// What the command line asks for, every option checked: nothing has run yet.
struct run_invocation {
  run_request request;
  report_options report;
  bool traced = false;  // --trace or --lines
  bool lines = false;
  bool sweep_given = false;
  trace::tracer_install install;
  std::optional<output_file> file;
};

// The request's variants, sizes, blocks, sweep, repeats and counters from the texts.
void parse_request(const po::variables_map& vm, const run_option_texts& t, run_request& request) {
  const lab& l = *request.which;
  if (vm.count("variant")) request.variants = pick_variants(l, t.variants, "--variant");
  if (vm.count("size"))
    for (std::size_t s : parse_count_list("--size", t.sizes, range_step::doubling))
      request.sizes.push_back(s);
  if (vm.count("block"))
    for (std::size_t b : parse_count_list("--block", t.blocks, range_step::doubling)) {
      if (b > 1024)
        throw usage_error("--block '" + std::to_string(b) + "': at most 1024 threads a block");
      request.blocks.push_back(static_cast<int>(b));
    }
  if (vm.count("sweep")) {
    request.sweep = parse_sweep(l, t.sweep);
    check_sweep_is_used(request);
  }
  request.repeat = parse_int_option("--repeat", t.repeat, 1, 100000);
  request.warmup = parse_int_option("--warmup", t.warmup, 0, 1000);
  request.counters = !vm.count("no-counters");
  if (vm.count("metrics")) {
    if (!request.counters) throw usage_error("--metrics and --no-counters contradict each other");
    request.metrics = resolve_metrics(t.metrics);
  }
  request.device = parse_int_option("--device", t.device, 0, 1 << 20);
}

// The report's format and view, --trace and --lines, --details and --output, each checked
// against the others.
void parse_report(const po::variables_map& vm, run_option_texts t, run_invocation& run) {
  // --output out.csv / out.json pick their format unless --format says otherwise; a refusal
  // names whichever of the two asked for it.
  std::string format_asked_by = "--format " + shown(t.format);
  if (!vm.count("format") && vm.count("output")) {
    const auto dot = t.output.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : t.output.substr(dot + 1);
    if (ext == "csv" || ext == "json") {
      t.format = ext;
      format_asked_by = "--output '" + shown(t.output) + "' (a ." + ext + " file)";
    }
  }
  report_options& report = run.report;
  report.format = parse_output_format(t.format);
  report.view = parse_report_view(t.view);
  run.lines = vm.count("lines") > 0;
  run.traced = run.lines || vm.count("trace") > 0;
  if (run.lines && vm.count("view")) throw usage_error("--lines prints its own table: drop --view");
  if (run.lines && report.format != output_format::table)
    throw usage_error("--lines prints its own table, not the " + format_asked_by +
                      " asks for (--trace with --format csv or json carries the trace's columns)");
  if (run.traced && !vm.count("view") && !vm.count("details")) report.view = report_view::trace;
  run.install = trace::tracer_install_here();
  if (run.traced) {
    const trace::tracer_availability a =
        trace::check_tracer(run.install, trace::tracer_environment_here());
    if (!a.ok) throw usage_error(a.reason, a.fix);
  }
  if (vm.count("details")) {
    if (vm.count("view")) throw usage_error("--details and --view: pick one");
    const auto picked = pick_variants(*run.request.which, t.details, "--details");
    if (picked.size() != 1) throw usage_error("--details '" + shown(t.details) + "': one variant");
    const variant* listed = picked.front();
    auto& variants = run.request.variants;
    if (!variants.empty() && std::find(variants.begin(), variants.end(), listed) == variants.end())
      throw usage_error("--details " + listed->name + ": not among the variants of --variant");
    variants = {listed};
    report.view = report_view::details;
    report.details_variant = listed->name;  // as the lab names it: ' soa' and 'soa,soa' are soa
  }
  if (report.format != output_format::table && (vm.count("view") || vm.count("details")))
    throw usage_error(std::string(vm.count("view") ? "--view" : "--details") +
                      " shapes the table; the " + format_asked_by + " carries every column");
  if (vm.count("output")) run.file.emplace(t.output);
}

// Parses and checks the whole command line before any work; false when it printed --help.
bool parse_run(const args& a, run_invocation& run) {
  run_option_texts texts;
  po::options_description options = run_options(texts);
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!parse_options(a, "cudalab run <lab> [options]", options, positional, vm)) return false;
  if (!vm.count("lab"))
    throw usage_error("run needs a lab: cudalab run 04-coalescing (cudalab list shows them)");
  run.request.which = &lab_named(vm["lab"].as<std::string>());
  parse_request(vm, texts, run.request);
  parse_report(vm, texts, run);
  run.sweep_given = vm.count("sweep") > 0;
  return true;
}

// What the run produced: its rows, the report's context, and how the counters fared.
struct run_results {
  std::vector<result_row> rows;
  report_context context;
  std::string no_gpu_why;               // empty when a GPU ran the points
  bool refused = false;                 // the counters were refused (permission, another profiler)
  trace::tracer_availability fallback;  // the tracer standing in for refused counters
  std::optional<trace_workspace> workspace;
};

// Runs the points (or predicts them without a GPU), then traces them where asked or where the
// tracer stands in for refused counters.
void execute_run(run_invocation& run, progress_line& progress, run_results& out) {
  run_request& request = run.request;
  request.gpu = cuda_device_count(&out.no_gpu_why) > 0;
  if (run.traced && !request.gpu) {
    check_run_request(request);  // bad input is exit 2, before the missing GPU is exit 3
    throw no_device_error(out.no_gpu_why + "; --trace and --lines run the kernels");
  }
  // What a bare --sweep list leaves out, said only once run_lab has accepted every point.
  const std::vector<std::string> sweep_notes =
      run.sweep_given ? skipped_sweep_notes(request) : std::vector<std::string>{};
  request.accepted = [&sweep_notes] {
    for (const std::string& note : sweep_notes) std::cerr << "cudalab: note: " << note << "\n";
  };
  report_context& context = out.context;
  context.which = request.which;
  if (request.gpu) {
    const device_facts facts = query_device(request.device);
    context.device = facts.name + " (sm_" + std::to_string(facts.cc_major) +
                     std::to_string(facts.cc_minor) + ")";
  } else {
    context.counters_note = "no GPU";
  }
  // run_lab checks every point (blocks, grids, sizes, sweep values) before anything runs.
  request.progress = [&progress](const std::string& what) { progress.show(what); };
  request.omitted = [](const std::string& what) { std::cerr << "cudalab: note: " << what << "\n"; };
  out.rows = run_lab(request);
  progress.clear();
  if (request.gpu) context.roof = measured_copy_roof(request.device);
  if (request.gpu && !out.rows.empty() && !out.rows.front().counters.available && request.counters)
    for (const auto& r : out.rows)
      if (r.counters.reason != "no kernels (library call)") {
        context.counters_note = r.counters.reason;
        break;
      }
  // Counters refused (no permission, another profiler attached): the tracer measures the
  // memory metrics instead, where it can, and the run says so.
  out.refused = !context.counters_note.empty() && request.gpu;
  if (out.refused && !run.traced)
    out.fallback = trace::check_tracer(run.install, trace::tracer_environment_here());
  if (run.traced || out.fallback.ok) {
    out.workspace.emplace();
    trace_rows(request, out.rows, run.install, *out.workspace, progress);
    if (out.refused)
      for (auto& r : out.rows)
        if (!r.counters.available) counters_from_trace(r);
  }
  if (out.refused && !run.traced) {
    if (out.fallback.ok)
      std::cerr << "cudalab: note: counters refused (" << context.counters_note
                << "): the memory columns come from the tracer (run --trace; docs/metrics.md)\n";
    else
      std::cerr << "cudalab: note: counters refused and no tracer to stand in: "
                << out.fallback.reason << "\n  fix: " << out.fallback.fix << "\n";
  }
}

// --lines: each point's lines, the tracer's and, where counters are permitted, the hardware's.
int write_lines(run_invocation& run, run_results& results, progress_line& progress) {
  const run_request& request = run.request;
  // The hardware's counts per line need the counters: without them the trace stands alone,
  // and each point says why.
  const std::string no_hardware =
      !request.counters ? "--no-counters"
      : results.refused ? "counters refused: " + results.context.counters_note
      : run.install.sass_lines_library.empty() ? "this build has no libcudalab_sass_lines.so"
                                               : "";
  if (no_hardware.empty())
    measure_hardware_lines(request, results.rows, run.install, *results.workspace,
                           [&progress](const std::string& what) { progress.show(what); });
  else
    for (auto& r : results.rows)
      if (r.trace) r.hardware_lines = trace_cell{false, no_hardware, {}, {}};
  progress.clear();
  std::ostringstream text;
  const std::vector<std::string> differ =
      write_lines_view(text, results.rows, run.install.nvdisasm);
  if (run.file)
    run.file->commit(text.str());
  else
    std::cout << text.str();
  for (const std::string& line : differ)
    std::cerr << "LINE MISMATCH " << line
              << " (the tracer and the hardware's SASS-level counters count it differently)\n";
  return report_trace_mismatches(results.rows) || !differ.empty() ? exit_mismatch : exit_ok;
}

// The report, written as it is made (a row at a time for CSV and JSON, with progress where
// someone watches: a long report is never held whole in memory).
void write_run_report(run_invocation& run, const run_results& results, progress_line& progress) {
  run.report.progress = [&progress](std::size_t written, std::size_t total) {
    progress.show("writing row " + std::to_string(written + 1) + " of " + std::to_string(total));
  };
  if (run.file) {
    run.file->commit(
        [&](std::ostream& out) { write_report(out, results.rows, run.report, results.context); });
    progress.clear();
    std::cerr << "cudalab: wrote " << results.rows.size() << " rows to "
              << shown(run.file->path(), 200) << "\n";
  } else {
    write_report(std::cout, results.rows, run.report, results.context);
    progress.clear();
  }
}

// The verdict after the report: failed verifications, the model's and the trace's mismatches,
// and the exit code they give.
int run_verdict(const run_invocation& run, const run_results& results) {
  const lab& l = *run.request.which;
  if (l.notes)
    for (const auto& note : l.notes())
      for (const auto& line :
           hanging_lines("cudalab: note: " + l.id + ": ", "  ", note, output_columns))
        std::cerr << line << "\n";
  if (!run.request.gpu) {
    for (const auto& line : predictions_only_notice(results.no_gpu_why)) std::cerr << line << "\n";
    return exit_no_gpu;
  }
  int code = report_trace_mismatches(results.rows) ? exit_mismatch : exit_ok;
  if ((run.traced || results.fallback.ok) && !results.rows.empty()) {
    std::vector<std::string> sizes;
    for (const auto& r : results.rows) {
      const std::string size = cells::with_separators(static_cast<double>(r.config.size));
      if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
    }
    std::cerr << "cudalab: note: traced one launch a point (no warm-up) at size " << joined(sizes)
              << " " << l.size_unit << "\n";
  }
  for (const auto& r : results.rows) {
    if (!r.verification.ok && r.role != variant_role::buggy) {
      std::cerr << "cudalab: " << r.lab_id << "/" << r.variant_name
                << " FAILED verification: " << r.verification.detail << "\n";
      code = exit_failure;
    }
    if (const auto bad = model_mismatches(r); !bad.empty()) {
      std::cerr << "cudalab: MODEL MISMATCH in " << r.lab_id << "/" << r.variant_name
                << " (exact counters differ from the access model):\n";
      for (const auto& k : compare_with_model(r))
        if (!k.within) std::cerr << comparison_line(k);
      if (code == exit_ok) code = exit_mismatch;
    }
  }
  return code;
}

// CUDALAB_PHASE_TRACE=1: where each point's host time went (for tuning the kit itself).
void print_phase_trace(const std::vector<result_row>& rows) {
  if (const char* trace = std::getenv("CUDALAB_PHASE_TRACE"); !trace || std::string(trace) != "1")
    return;
  for (const auto& r : rows)
    std::cerr << "phases " << r.variant_name << " " << r.config.param << ": wait "
              << r.phases.wait_ms << " alloc " << r.phases.alloc_ms << " h2d " << r.phases.h2d_ms
              << " kernel " << r.phases.kernel_ms << " d2h " << r.phases.d2h_ms << " verify "
              << r.phases.verify_ms << " ms\n";
}

}  // namespace

int run_command(const args& a) {
  run_invocation run;
  if (!parse_run(a, run)) return exit_ok;  // --help
  progress_line progress;
  run_results results;
  execute_run(run, progress, results);
  if (run.lines) return write_lines(run, results, progress);
  print_phase_trace(results.rows);
  write_run_report(run, results, progress);
  return run_verdict(run, results);
}

}  // namespace cudalab::tool
