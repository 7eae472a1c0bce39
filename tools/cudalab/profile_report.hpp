// `cudalab profile`'s report: what a program's kernels did to memory, a row a kernel, read from
// the memory tracer's file of every launch (trace_record.hpp), most wasteful first.
#pragma once

#include "cudalab/trace/trace_record.hpp"
#include "cudalab/trace_lines.hpp"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cudalab::tool {

// Which witness measured a row: the memory tracer (every launch patched), or CUPTI's SASS-level
// counters (a process a kernel function, its launches summed; no bytes, so no ideal or waste).
enum class profile_witness { tracer, counters };
const char* to_string(profile_witness w);

struct kernel_profile {
  std::string name;  // demangled
  profile_witness witness = profile_witness::tracer;
  std::uint64_t launches = 0;
  std::uint64_t untraced_launches = 0;  // launches the tracer reported an error for
  std::uint64_t dropped = 0;            // accesses lost to a full table: the counts are low
  // The (grid, block) shapes its launches had, as the tracer saw them (the counters' rows have
  // none: they sum launches without their shapes).
  std::set<std::pair<std::array<unsigned, 3>, std::array<unsigned, 3>>> shapes;
  model::access_counts counts;  // global loads and stores, shared accesses
  // Its launches' GPU time, summed, from a run that patched no code (attach_extra_run); and how
  // many launches that run timed (0: not timed; it may differ from `launches` if the runs differ).
  std::uint64_t nanoseconds = 0;
  std::uint64_t timed_launches = 0;
  // Its launches' DRAM bytes and local traffic, summed by launch_counters.hpp's column, from a run
  // under the Range Profiler (attach_extra_run), and how many launches that run counted (0: none).
  std::map<std::string, std::uint64_t> range_counts;
  std::uint64_t range_launches = 0;
  std::uint64_t range_count(const char* column) const {
    const auto found = range_counts.find(column);
    return found == range_counts.end() ? 0 : found->second;
  }
  // Whether the bytes the lanes asked for are known (the tracer's), and so the ideal and waste.
  bool bytes_known() const { return witness == profile_witness::tracer; }
  // The fewest 32-byte sectors the bytes the lanes asked for could fill, loads and stores.
  std::uint64_t ideal_sectors() const;
  std::uint64_t sectors() const { return counts.global_ld_sectors + counts.global_st_sectors; }
  // Sectors moved beyond the ideal: what the access pattern costs.
  std::uint64_t waste() const {
    return sectors() > ideal_sectors() ? sectors() - ideal_sectors() : 0;
  }
};

// Which launches a report keeps: those whose kernel name (demangled) matches `name` and whose
// NVTX ranges ("train/step", trace_record.hpp) match `nvtx` (every one when none), then of those,
// in the order they ended, `count` after the first `skip`.
struct launch_selection {
  std::optional<std::regex> name;
  std::optional<std::regex> nvtx;
  std::uint64_t skip = 0;
  std::uint64_t count = ~std::uint64_t{0};
};

// The counters witness's lines (profile_counters.hpp), a row a kernel function whose name
// `select.name` matches (skip and count do not apply: its launches are summed); the most sectors
// first. A function the runs could not measure keeps its launches as untraced.
std::vector<kernel_profile> counted_kernels(const std::vector<trace::traced_launch>& functions,
                                            const launch_selection& select);

// The launches `select` keeps, in the order they ended.
std::vector<trace::traced_launch> selected_launches(
    const std::vector<trace::traced_launch>& launches, const launch_selection& select);

// The selected launches of `launches`, summed a kernel; the most waste first.
std::vector<kernel_profile> profile_kernels(const std::vector<trace::traced_launch>& launches,
                                            const launch_selection& select);

// Each kernel's time or DRAM bytes from a run of the program's own (instrumentation/kernel_times,
// launch_counters: a line a launch, in launch order), selected as the measured launches were: what
// the lines carry (nanoseconds, Range Profiler counts; launches with an error carry neither) summed
// by name onto the row of that name. A row without shapes (the counters') takes the launches'.
void attach_extra_run(std::vector<kernel_profile>& kernels,
                      const std::vector<trace::traced_launch>& timed,
                      const launch_selection& select);

// The tracer does not see NVTX (the Sanitizer API's process aborted when the tracer was also the
// program's NVTX tool, on an H100), so its launches take their ranges from the timing run's,
// launch for launch in the order of the calls. Throws cudalab::error where the two runs launched
// different kernels (a program whose launches vary from run to run cannot be picked by range).
void copy_nvtx_ranges(std::vector<trace::traced_launch>& traced,
                      const std::vector<trace::traced_launch>& timed);

// How the program ended, as the report states it.
struct program_end {
  std::string program;   // as given
  std::string how;       // "exit 0", "signal 11", "killed after 600 s"
  bool complete = true;  // false: ended by a signal or the deadline, the report is partial
  std::string witness = "tracer";   // tracer, counters, or both (a counters row under each)
  std::string why_untimed;          // why the kernels have no time, where they have none
  std::string why_no_range_counts;  // why no DRAM bytes or local traffic, where there are none
};

// The report within 120 columns; as CSV (a header, a row a kernel, its witness last); as JSON
// (the program, how it ended, the witness and a record a kernel). With both witnesses, `kernels`
// holds a kernel's tracer row, then its counters row.
void write_profile_table(std::ostream& out, const std::vector<kernel_profile>& kernels,
                         const program_end& end);
void write_profile_csv(std::ostream& out, const std::vector<kernel_profile>& kernels);
// --lines: the lines of the selected launches (trace_lines.hpp's lines_of, most waste first)
// and, where some accesses have none (a program built without -lineinfo), why.
struct profile_lines {
  std::vector<line_totals> lines;
  std::string why_none;
  // The witness the lines come from: only that witness's rows show them (with both witnesses,
  // the tracer's).
  profile_witness witness = profile_witness::tracer;
};

void write_profile_json(std::ostream& out, const std::vector<kernel_profile>& kernels,
                        const program_end& end, const profile_lines* lines = nullptr);
// --lines --format csv: a row a source line (kernel, line, its counts), most waste first.
void write_profile_lines_csv(std::ostream& out, const std::vector<line_totals>& lines);

// --lines as a table: under each kernel (in the report's order), its source lines, most waste
// first; why some accesses have no line, said once under the heading.
void write_profile_lines(std::ostream& out, const std::vector<kernel_profile>& kernels,
                         const profile_lines& lines, const program_end& end);

}  // namespace cudalab::tool
