// `cudalab profile [options] -- PROGRAM [ARGS...]`: runs any CUDA program with a witness injected
// into it (CUPTI's SASS-level counters or the memory tracer, every launch measured) and reports
// what each of its kernels did to global and shared memory (profile_report.hpp). The program's own
// output passes through and its exit is reported; a program that ends by a signal or its deadline
// leaves the report of the launches before, marked incomplete. Which witness measures (--witness):
// by default CUPTI's SASS-level counters where they are permitted, a run a kernel function
// (profile_counters.hpp), and the tracer, which needs no counter permission, where they are
// refused or missing from the build, or the program does not reach its exit (the counters are read
// there; the program then runs again, traced), each said on stderr, and where launches are picked
// (--skip, --count, --nvtx) or lines asked for (their waste needs the tracer's bytes); --witness
// tracer, counters or both chooses. Once the measured run reached its exit, two more runs give
// what the witnesses cannot: the time of each kernel, with no code patched
// (instrumentation/kernel_times), and its DRAM bytes, under the Range Profiler where counters are
// permitted (instrumentation/launch_counters), with its local-memory traffic. Both are the
// program's NVTX tool as well, so their launches carry the ranges they were made in; the tracer's
// take theirs from the timing run's, launch for launch (--nvtx then makes that run first).
#include "commands.hpp"
#include "options.hpp"
#include "output_file.hpp"
#include "profile_counters.hpp"
#include "profile_report.hpp"

#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"
#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"
#include "cudalab/trace/tracer_support.hpp"
#include "cudalab/trace_child.hpp"
#include "cudalab/user_text.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

namespace cudalab::tool {
namespace {

// Within 120 columns: the options on a line of their own.
constexpr const char* usage_line = "cudalab profile [options] -- PROGRAM [ARGS...]";
constexpr const char* options_line =
    "  options: --format table|csv|json, --lines, --output FILE, --kernel REGEX, --nvtx REGEX, "
    "--skip N, --count M,\n           --timeout S, --witness auto|tracer|counters|both, --trace, "
    "--no-time, --no-dram";

// PROGRAM as exec would find it: a path (with a slash) as given, a bare name along PATH.
// usage_error when there is no such executable file.
std::string executable_of(const std::string& program) {
  const auto runnable = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
  };
  if (program.find('/') != std::string::npos) {
    if (runnable(program)) return program;
    throw usage_error("profile: '" + shown(program) + "' is not an executable file");
  }
  const char* path = std::getenv("PATH");
  std::istringstream folders(path ? path : "");
  for (std::string folder; std::getline(folders, folder, ':');)
    if (!folder.empty() && runnable(folder + "/" + program)) return folder + "/" + program;
  throw usage_error("profile: no executable '" + shown(program) + "' on PATH");
}

// The launches the tracer wrote. A program stopped by a signal or its deadline may have been
// stopped while its last line was written: that line is left out, as the report marks the run
// incomplete anyway. Any other malformed line is an error.
std::vector<trace::traced_launch> launches_written(const std::string& path, bool complete) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::vector<trace::traced_launch> launches;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    try {
      launches.push_back(trace::parse_traced_launch(lines[i]));
    } catch (const error&) {
      if (complete || i + 1 != lines.size()) throw;
    }
  }
  return launches;
}

// With both witnesses: each kernel's tracer row, then its counters row (a kernel only one of
// them saw keeps its row alone, the counters' ones last).
std::vector<kernel_profile> beside_each_other(const std::vector<kernel_profile>& traced,
                                              std::vector<kernel_profile> counted) {
  std::vector<kernel_profile> rows;
  for (const kernel_profile& t : traced) {
    rows.push_back(t);
    const auto same = std::find_if(counted.begin(), counted.end(),
                                   [&](const kernel_profile& c) { return c.name == t.name; });
    if (same == counted.end()) continue;
    rows.push_back(*same);
    counted.erase(same);
  }
  rows.insert(rows.end(), counted.begin(), counted.end());
  return rows;
}

// One more run of the program with `environment` (an injection library that writes a line a
// launch to `output`), its output dropped (the measured run passed it through): the launches it
// wrote, or why there are none (it did not reach its exit; every launch's error, the first said).
struct extra_run {
  std::vector<trace::traced_launch> launches;
  std::string why_none;
};

extra_run run_again(const std::vector<std::string>& argv,
                    std::vector<std::pair<std::string, std::string>> environment,
                    const std::string& output, int timeout, const char* what) {
  child_spec spec;
  spec.argv = argv;
  spec.set_environment = std::move(environment);
  spec.deadline_seconds = timeout;
  spec.capture_output = true;
  const child_result ran = run_child(spec);
  extra_run run;
  if (ran.signal != 0 || ran.timed_out) {
    run.why_none = std::string("the ") + what + " " + ran.describe();
    return run;
  }
  run.launches = trace::read_trace_file(output);
  if (!run.launches.empty() &&
      std::all_of(run.launches.begin(), run.launches.end(),
                  [](const trace::traced_launch& l) { return !l.error.empty(); }))
    run.why_none = run.launches.front().error;
  return run;
}

}  // namespace

int profile_command(const args& a) {
  const auto dashes = std::find(a.begin(), a.end(), std::string("--"));
  const args own(a.begin(), dashes);
  if (std::find(own.begin(), own.end(), "--help") != own.end() ||
      std::find(own.begin(), own.end(), "-h") != own.end()) {
    std::cout
        << "usage: " << usage_line << "\n"
        << options_line << "\n"
        << "Runs PROGRAM with CUPTI's SASS-level counters injected (or, where counters are "
           "refused, the memory tracer)\nand prints a row a kernel: global requests and sectors, "
           "the ideal sectors for the bytes asked,\nthe waste, shared conflicts; then runs it "
           "again, no code patched, to time each kernel (--no-time: not),\nand, where counters are "
           "permitted, once more to count each kernel's DRAM bytes and local traffic (--no-dram: "
           "not).\n--witness "
           "tracer|counters|both chooses (--trace: both, as for run); auto (the default) takes the "
           "counters\n  unless --skip, --count, --nvtx or --lines need the tracer, or counters are "
           "refused (said on stderr).\n"
           "--nvtx: only launches made inside matching NVTX push/pop ranges (\"outer/inner\").\n"
           "--lines: the same a source line under each kernel (PROGRAM built with -lineinfo);\n"
           "  in csv a row a line, in json a list under each kernel.\n"
           "The program's output passes through; exit 0 when it exited 0, 1 otherwise (the report "
           "is still written),\n2 for bad input or no kernel selected, 3 where there is no GPU.\n";
    return exit_ok;
  }
  po::options_description options("profile options");
  std::string format_text = "table", output_text, kernel_text, timeout_text = "600",
              skip_text = "0", count_text;
  std::string nvtx_text;
  bool by_line = false, untimed = false, no_dram = false, beside = false;
  std::string witness_text = "auto";
  options.add_options()("format,f", po::value(&format_text), "table, csv or json")(
      "lines", po::bool_switch(&by_line), "a kernel's source lines, most waste first")(
      "output,o", po::value(&output_text), "write the report to FILE (atomically)")(
      "kernel,k", po::value(&kernel_text), "only the kernels whose name matches REGEX")(
      "nvtx", po::value(&nvtx_text), "only the launches made inside NVTX ranges matching REGEX")(
      "skip", po::value(&skip_text), "leave out the first N launches (of those --kernel keeps)")(
      "count", po::value(&count_text), "then keep M launches (default: all)")(
      "timeout", po::value(&timeout_text), "seconds before the program is stopped (600)")(
      "witness", po::value(&witness_text), "auto (default), tracer, counters or both")(
      "trace", po::bool_switch(&beside), "the tracer's row beside the counters' (--witness both)")(
      "no-time", po::bool_switch(&untimed), "skip the run that times the kernels")(
      "no-dram", po::bool_switch(&no_dram),
      "skip the run that counts their DRAM bytes and local traffic");
  // A program given without -- would read as an option's stray value: say where it goes.
  if (dashes == a.end() || dashes + 1 == a.end())
    throw usage_error("profile needs a program after --: " + std::string(usage_line));
  po::variables_map vm;
  if (!parse_options(own, usage_line, options, po::positional_options_description(), vm))
    return exit_ok;
  // Bad input before any work.
  if (format_text != "table" && format_text != "csv" && format_text != "json")
    throw usage_error("--format '" + shown(format_text, 32) +
                      "': profile prints table, csv or json");
  // --trace, as for `run`: the tracer beside the counters.
  if (beside && witness_text != "auto" && witness_text != "both")
    throw usage_error("--trace puts the tracer beside the counters: it cannot go with --witness " +
                      shown(witness_text, 32));
  if (beside) witness_text = "both";
  if (witness_text != "auto" && witness_text != "tracer" && witness_text != "counters" &&
      witness_text != "both")
    throw usage_error("--witness '" + shown(witness_text, 32) +
                      "': profile's witnesses are auto, tracer, counters and both");
  const bool picks_launches = skip_text != "0" || !count_text.empty() || !nvtx_text.empty();
  if ((witness_text == "counters" || witness_text == "both") && picks_launches)
    throw usage_error(
        "--skip, --count and --nvtx pick launches, which only the tracer tells apart (--witness "
        "tracer)");
  if (untimed && !nvtx_text.empty())
    throw usage_error(
        "--nvtx reads the NVTX ranges in the run that times the kernels: leave out "
        "--no-time");
  const int timeout = parse_int_option("--timeout", timeout_text, 1, 86400);
  launch_selection select;
  select.skip = static_cast<std::uint64_t>(parse_int_option("--skip", skip_text, 0, 1 << 30));
  if (!count_text.empty())
    select.count = static_cast<std::uint64_t>(parse_int_option("--count", count_text, 1, 1 << 30));
  // An empty pattern would keep everything, which is not what someone who typed it meant.
  for (const char* name : {"kernel", "nvtx"})
    if (vm.count(name) && vm[name].as<std::string>().empty())
      throw usage_error(std::string("--") + name + " needs a regular expression, not an empty one");
  if (!kernel_text.empty()) {
    try {
      select.name.emplace(kernel_text, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      throw usage_error("--kernel '" + shown(kernel_text, 32) + "' is not a regular expression");
    }
  }
  if (!nvtx_text.empty()) {
    try {
      select.nvtx.emplace(nvtx_text, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      throw usage_error("--nvtx '" + shown(nvtx_text, 32) + "' is not a regular expression");
    }
  }
  const std::string program = executable_of(*(dashes + 1));
  std::unique_ptr<output_file> output;
  if (!output_text.empty()) output = std::make_unique<output_file>(output_text);

  std::string why;
  if (cuda_device_count(&why) == 0) throw no_device_error(why);
  const trace::tracer_install install = trace::tracer_install_here();
  // auto: the counters, unless launches are picked, which only the tracer tells apart, or lines
  // are asked for, whose waste needs the bytes the lanes asked for, which only the tracer counts.
  const bool automatic = witness_text == "auto";
  std::string witness =
      automatic ? (picks_launches || by_line ? "tracer" : "counters") : witness_text;
  if (witness != "tracer" && automatic && install.sass_lines_library.empty()) {
    std::cerr << "cudalab profile: this build has no SASS metrics library "
                 "(libcudalab_sass_lines.so): the memory tracer measures\n";
    witness = "tracer";
  }
  // Whether counters are permitted here: asked once, where a witness or the DRAM run needs them.
  std::optional<counter_availability> counters_probed;
  const auto counters_here = [&]() -> const counter_availability& {
    if (!counters_probed) counters_probed = counter_session::probe(0);
    return *counters_probed;
  };
  if (witness != "tracer") {
    // Refused counters (no permission, another profiler): the tracer measures, and says why.
    const counter_availability& counters = counters_here();
    if (!counters.ok()) {
      std::cerr << "cudalab profile: counters refused (" << counters.reason
                << "): the memory tracer measures instead\n  fix: " << counters.fix << "\n";
      witness = "tracer";
    }
  }
  const auto need_tracer = [&] {
    const trace::tracer_availability tracer =
        trace::check_tracer(install, trace::tracer_environment_here());
    if (!tracer.ok) throw error("profile needs the memory tracer: " + tracer.reason, tracer.fix);
  };
  if (witness != "counters") need_tracer();

  const trace_workspace workspace;
  std::vector<std::string> argv(dashes + 1, a.end());
  argv.front() = program;
  std::cout.flush();
  child_result ended;
  std::vector<trace::traced_launch> launches;  // the tracer's, a line a launch
  std::vector<kernel_profile> kernels;
  bool complete = true;
  // The run that times the kernels (no code patched), made once: after the measured run, or
  // right after the tracer's where --nvtx needs the ranges it records.
  std::optional<extra_run> timed;
  const auto time_program = [&] {
    if (timed) return;
    const std::string output = workspace.dir() + "/times.jsonl";
    timed = install.kernel_times_library.empty()
                ? extra_run{{}, "this build has no libcudalab_kernel_times.so"}
                : run_again(argv, trace::timed_child_environment(install, output), output, timeout,
                            "timing run");
  };
  const auto trace_program = [&] {
    child_spec spec;
    spec.argv = argv;
    spec.set_environment =
        trace::traced_child_environment(install, workspace.trace_file(), workspace.dir());
    spec.set_environment.emplace_back("CUDALAB_TRACE_EVERY_LAUNCH", "1");
    spec.deadline_seconds = timeout;
    ended = run_child(spec);
    complete = ended.signal == 0 && !ended.timed_out;
    launches = launches_written(workspace.trace_file(), complete);
    if (select.nvtx) {  // the tracer's launches take their ranges from the timing run's
      if (!complete)
        throw error("--nvtx: " + *(dashes + 1) + " (" + ended.describe() +
                    ") did not finish, so the run that reads its NVTX ranges was not made");
      time_program();
      if (!timed->why_none.empty())
        throw error("--nvtx: the NVTX ranges come from the run that times the kernels: " +
                    timed->why_none);
      copy_nvtx_ranges(launches, timed->launches);
    }
    kernels = profile_kernels(launches, select);
  };
  if (witness != "counters") trace_program();
  if (witness != "tracer") {
    const bool traced = witness == "both";
    const counted_program counted =
        count_kernel_functions(argv, install, workspace.dir(), timeout, !traced);
    if (traced) {
      kernels = beside_each_other(kernels, counted_kernels(counted.functions, select));
      complete = complete && counted.complete;
    } else if (automatic && !counted.complete) {
      // The counters are read as the program exits: one stopped before has left none of its
      // launches' counts. The tracer writes each launch as it ends, so it keeps them.
      for (const std::string& line :
           wrapped("cudalab profile: " + *(dashes + 1) + " (" + counted.ended.describe() +
                       ") did not reach its exit, where the counters are read: the memory "
                       "tracer measures instead",
                   120))
        std::cerr << line << "\n";
      need_tracer();
      witness = "tracer";
      trace_program();
    } else {
      ended = counted.ended;
      complete = counted.complete;
      launches = counted.functions;  // for --lines and the no-kernel message
      kernels = counted_kernels(counted.functions, select);
    }
  }
  program_end end{*(dashes + 1), ended.describe(), complete, witness, "", ""};
  if (kernels.empty()) {
    std::cerr << "cudalab profile: " << end.program << " (" << end.how << ") "
              << (launches.empty()
                      ? "launched no CUDA kernel"
                      : "launched no kernel that --kernel, --nvtx, --skip and --count select")
              << "\n";
    return exit_usage;
  }
  // Time: a run of its own, with no code patched (both witnesses patch it); DRAM bytes: another,
  // under the Range Profiler, where counters are permitted.
  if (untimed) {
    end.why_untimed = "--no-time";
  } else if (!complete) {
    end.why_untimed = "the program did not finish";
  } else {
    time_program();
    end.why_untimed = timed->why_none;
    if (end.why_untimed.empty()) attach_extra_run(kernels, timed->launches, select);
  }
  std::string& uncounted = end.why_no_range_counts;
  if (no_dram) {
    uncounted = "--no-dram";
  } else if (!complete) {
    uncounted = "the program did not finish";
  } else if (install.launch_counters_library.empty()) {
    uncounted = "this build has no libcudalab_launch_counters.so";
  } else if (!counters_here().ok()) {
    uncounted = "counters refused: " + counters_here().reason;
  } else {
    const std::string output = workspace.dir() + "/range-counts.jsonl";
    const extra_run counted =
        run_again(argv, trace::launch_counters_child_environment(install, output), output, timeout,
                  "DRAM run");
    uncounted = counted.why_none;
    if (uncounted.empty()) attach_extra_run(kernels, counted.launches, select);
  }
  profile_lines lines;
  lines.witness = witness == "counters" ? profile_witness::counters : profile_witness::tracer;
  if (by_line) {
    trace_cell selected;
    selected.available = true;
    for (trace::traced_launch& l : selected_launches(launches, select))
      if (l.error.empty()) selected.launches.push_back(std::move(l));
    lines.lines = lines_of(selected, install.nvdisasm, &lines.why_none);
  }
  const auto write = [&](std::ostream& out) {
    if (format_text == "csv" && by_line)
      write_profile_lines_csv(out, lines.lines);
    else if (format_text == "csv")
      write_profile_csv(out, kernels);
    else if (format_text == "json")
      write_profile_json(out, kernels, end, by_line ? &lines : nullptr);
    else if (by_line)
      write_profile_lines(out, kernels, lines, end);
    else
      write_profile_table(out, kernels, end);
  };
  if (output)
    output->commit(write);
  else
    write(std::cout);
  // CSV has no place for how the program ended or why times, DRAM bytes or lines are missing:
  // stderr says it.
  if (format_text == "csv") {
    std::string notes;
    if (!end.complete)
      notes =
          end.program + " (" + end.how + ") did not finish: the rows hold the launches before. ";
    if (!untimed && !end.why_untimed.empty())
      notes += "The kernels are not timed: " + end.why_untimed + ". ";
    if (!no_dram && !end.why_no_range_counts.empty())
      notes += "No DRAM bytes or local traffic: " + end.why_no_range_counts + ". ";
    if (by_line && !lines.why_none.empty())
      notes += "Some accesses have no source line: " + lines.why_none;
    if (!notes.empty())
      for (const std::string& line : wrapped("cudalab profile: " + notes, 120))
        std::cerr << line << "\n";
  }
  return ended.exited_with(0) ? exit_ok : exit_failure;
}

}  // namespace cudalab::tool
