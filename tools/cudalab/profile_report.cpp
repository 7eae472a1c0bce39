#include "profile_report.hpp"

#include "cudalab/cell_format.hpp"
#include "cudalab/error.hpp"
#include "cudalab/kernel_name.hpp"
#include "cudalab/trace/launch_counters.hpp"
#include "cudalab/user_text.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <ostream>

namespace cudalab::tool {
namespace {

std::uint64_t sectors_for(std::uint64_t bytes) { return (bytes + 31) / 32; }

std::string per_request(std::uint64_t sectors, std::uint64_t requests) {
  return requests ? cells::fixed(static_cast<double>(sectors) / static_cast<double>(requests), 2)
                  : "-";
}

// A name cut to `width` characters, its end marked, so the table keeps its columns.
std::string fitted(const std::string& name, std::size_t width) {
  return name.size() <= width ? name : name.substr(0, width - 3) + "...";
}

}  // namespace

const char* to_string(profile_witness w) {
  return w == profile_witness::counters ? "counters" : "tracer";
}

std::vector<kernel_profile> counted_kernels(const std::vector<trace::traced_launch>& functions,
                                            const launch_selection& select) {
  std::vector<kernel_profile> kernels;
  for (const trace::traced_launch& f : functions) {
    kernel_profile k;
    k.name = kernel_display_name(f.kernel);
    if (select.name && !std::regex_search(k.name, *select.name)) continue;
    k.witness = profile_witness::counters;
    k.launches = f.launches;
    if (f.error.empty())
      k.counts = trace::traced_counts({f});
    else
      k.untraced_launches = f.launches;
    kernels.push_back(std::move(k));
  }
  std::stable_sort(
      kernels.begin(), kernels.end(),
      [](const kernel_profile& a, const kernel_profile& b) { return a.sectors() > b.sectors(); });
  return kernels;
}

std::uint64_t kernel_profile::ideal_sectors() const {
  return sectors_for(counts.global_ld_bytes) + sectors_for(counts.global_st_bytes);
}

std::vector<trace::traced_launch> selected_launches(
    const std::vector<trace::traced_launch>& launches, const launch_selection& select) {
  std::vector<trace::traced_launch> kept;
  std::uint64_t matched = 0;  // launches whose name matched, so far
  for (const trace::traced_launch& l : launches) {
    if (select.name && !std::regex_search(kernel_display_name(l.kernel), *select.name)) continue;
    if (select.nvtx && !std::regex_search(l.nvtx, *select.nvtx)) continue;
    const std::uint64_t index = matched++;
    if (index >= select.skip && index - select.skip < select.count) kept.push_back(l);
  }
  return kept;
}

std::vector<kernel_profile> profile_kernels(const std::vector<trace::traced_launch>& launches,
                                            const launch_selection& select) {
  std::map<std::string, kernel_profile> by_name;
  std::map<std::string, std::vector<trace::traced_launch>> traced;  // a kernel's counted launches
  for (const trace::traced_launch& l : selected_launches(launches, select)) {
    const std::string name = kernel_display_name(l.kernel);
    kernel_profile& k = by_name[name];
    k.name = name;
    ++k.launches;
    if (l.shape_known()) k.shapes.insert({l.grid, l.block});
    if (!l.error.empty()) {
      ++k.untraced_launches;
      continue;
    }
    k.dropped += l.dropped;
    traced[name].push_back(l);
  }
  std::vector<kernel_profile> kernels;
  for (auto& [name, k] : by_name) {
    k.counts = trace::traced_counts(traced[name]);
    kernels.push_back(std::move(k));
  }
  std::stable_sort(
      kernels.begin(), kernels.end(),
      [](const kernel_profile& a, const kernel_profile& b) { return a.waste() > b.waste(); });
  return kernels;
}

void attach_extra_run(std::vector<kernel_profile>& kernels,
                      const std::vector<trace::traced_launch>& launches,
                      const launch_selection& select) {
  std::map<std::string, kernel_profile> by_name;
  for (const trace::traced_launch& l : selected_launches(launches, select)) {
    kernel_profile& t = by_name[kernel_display_name(l.kernel)];
    if (l.nanoseconds) {
      t.nanoseconds += l.nanoseconds;
      ++t.timed_launches;
    }
    if (!l.range_counts.empty()) {
      for (const auto& [column, value] : l.range_counts) t.range_counts[column] += value;
      ++t.range_launches;
    }
    if (l.shape_known()) t.shapes.insert({l.grid, l.block});
  }
  for (kernel_profile& k : kernels) {
    const auto found = by_name.find(k.name);
    if (found == by_name.end()) continue;
    const kernel_profile& t = found->second;
    if (t.timed_launches) {
      k.nanoseconds = t.nanoseconds;
      k.timed_launches = t.timed_launches;
    }
    if (t.range_launches) {
      k.range_counts = t.range_counts;
      k.range_launches = t.range_launches;
    }
    if (k.shapes.empty()) k.shapes = t.shapes;
  }
}

void copy_nvtx_ranges(std::vector<trace::traced_launch>& traced,
                      const std::vector<trace::traced_launch>& timed) {
  const auto differ = [&](const std::string& how) {
    throw error("--nvtx: the ranges come from the run that times the kernels, and " + how +
                ": the program's launches vary from run to run, so none can be picked by range");
  };
  if (traced.size() != timed.size())
    differ("it made " + std::to_string(timed.size()) + " launches where the measured run made " +
           std::to_string(traced.size()));
  for (std::size_t i = 0; i < traced.size(); ++i) {
    if (traced[i].kernel != timed[i].kernel)
      differ("its launch " + std::to_string(i + 1) + " was of " +
             kernel_display_name(timed[i].kernel) + ", not " +
             kernel_display_name(traced[i].kernel));
    traced[i].nvtx = timed[i].nvtx;
  }
}

namespace {

// "32x32" for (32, 32, 1): the dimensions up to the last that is not 1; "1" for (1, 1, 1).
std::string dims_text(const std::array<unsigned, 3>& d) {
  const std::size_t used = d[2] != 1 ? 3 : d[1] != 1 ? 2 : 1;
  std::string text = std::to_string(d[0]);
  for (std::size_t i = 1; i < used; ++i) text += "x" + std::to_string(d[i]);
  return text;
}

// "1 time", "3 times".
std::string times(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

// 67.1 MB: bytes in decimal units, three significant digits.
std::string bytes_text(std::uint64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (b < 1e3) return std::to_string(bytes) + " B";
  const auto three = [](double v, const char* unit) {
    return cells::fixed(v, v < 9.995 ? 2 : v < 99.95 ? 1 : 0) + " " + unit;
  };
  if (b < 1e6) return three(b / 1e3, "kB");
  if (b < 1e9) return three(b / 1e6, "MB");
  return three(b / 1e9, "GB");
}

// The table's line under a kernel: its launches' grid and block (or how many shapes they had),
// their time (with the time of one launch where there were several) and their DRAM bytes.
std::string detail_line(const kernel_profile& k) {
  std::string shape;
  if (k.shapes.size() > 1) {
    shape = "launched with " + std::to_string(k.shapes.size()) + " grid and block shapes";
  } else if (!k.shapes.empty()) {
    const auto& [grid, block] = *k.shapes.begin();
    shape = "grid " + dims_text(grid) + ", block " + dims_text(block);
  }
  std::string time, dram, local;
  if (k.range_launches) {
    dram = "DRAM " + bytes_text(k.range_count("dram_read_bytes")) + " read, " +
           bytes_text(k.range_count("dram_write_bytes")) + " written";
    if (k.range_launches != k.launches)
      dram += " (the DRAM run launched it " + times(k.range_launches) + ")";
    const std::uint64_t ld = k.range_count("local_ld_requests"),
                        st = k.range_count("local_st_requests");
    if (ld || st)
      local = "local " + cells::compact_count(static_cast<double>(ld)) + " ld req (" +
              cells::compact_count(static_cast<double>(k.range_count("local_ld_sectors"))) +
              " sect), " + cells::compact_count(static_cast<double>(st)) + " st req (" +
              cells::compact_count(static_cast<double>(k.range_count("local_st_sectors"))) +
              " sect)";
  }
  if (k.timed_launches) {
    const double ms = static_cast<double>(k.nanoseconds) / 1e6;
    time = "time " + cells::time_with_unit(ms);
    if (k.timed_launches > 1)
      time +=
          " (" + cells::time_with_unit(ms / static_cast<double>(k.timed_launches)) + " a launch)";
    if (k.timed_launches != k.launches)
      time += " (the timing run launched it " + times(k.timed_launches) + ")";
  }
  // The parts on one line, or on more where they would pass 120 columns.
  std::string lines, line;
  for (const std::string* part : {&shape, &time, &dram, &local}) {
    if (part->empty()) continue;
    if (!line.empty() && line.size() + 2 + part->size() > 120) {
      lines += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "  " : "; ") + *part;
  }
  return line.empty() ? lines : lines + line + "\n";
}

// CSV: "32x32x1", "varies" for several shapes, empty where not known.
std::string csv_dims(const kernel_profile& k, bool grid) {
  if (k.shapes.empty()) return "";
  if (k.shapes.size() > 1) return "varies";
  const std::array<unsigned, 3>& d = grid ? k.shapes.begin()->first : k.shapes.begin()->second;
  return std::to_string(d[0]) + "x" + std::to_string(d[1]) + "x" + std::to_string(d[2]);
}

void write_heading(std::ostream& out, const program_end& end) {
  const char* witness = end.witness == "counters" ? "CUPTI's SASS counters, a run a kernel"
                        : end.witness == "both"   ? "the memory tracer, counters under it"
                                                  : "the memory tracer, every launch";
  // One line where it fits in 120 columns; else the witness on a line of its own. A path too long
  // for a line is cut (the JSON keeps it whole).
  const std::string program = "cudalab profile: " + shown(end.program, 80) + " (" + end.how + ")";
  const std::string counted_by = std::string("witness: ") + witness;
  if (program.size() + 2 + counted_by.size() <= 120) {
    out << program << "; " << counted_by << "\n";
    return;
  }
  for (const std::string& line : wrapped(program, 120)) out << line << "\n";
  out << counted_by << "\n";
}

// A count the witness does not have ("-"), else compact.
std::string known(bool is_known, std::uint64_t v) {
  return is_known ? cells::compact_count(static_cast<double>(v)) : "-";
}

void write_incomplete(std::ostream& out, const program_end& end) {
  if (!end.complete)
    out << "INCOMPLETE: the program did not finish; these are the launches before\n";
}

}  // namespace

void write_profile_table(std::ostream& out, const std::vector<kernel_profile>& kernels,
                         const program_end& end) {
  write_heading(out, end);
  constexpr std::size_t name_width = 28;
  char line[256];
  std::snprintf(line, sizeof line, "%-*s %8s %9s %9s %9s %9s %9s %9s %9s %8s\n",
                static_cast<int>(name_width), "kernel", "launches", "ld req", "ld sect", "st req",
                "st sect", "sect/req", "ideal", "waste", "sh confl");
  out << line;
  const kernel_profile* previous = nullptr;
  for (const kernel_profile& k : kernels) {
    const model::access_counts& c = k.counts;
    const std::uint64_t requests = c.global_ld_requests + c.global_st_requests;
    // The counters' row of a kernel the tracer's row above names.
    const bool under = previous && previous->name == k.name && previous->witness != k.witness;
    previous = &k;
    std::snprintf(
        line, sizeof line, "%-*s %8s %9s %9s %9s %9s %9s %9s %9s %8s\n",
        static_cast<int>(name_width),
        (under ? std::string("  ") + to_string(k.witness) : fitted(k.name, name_width)).c_str(),
        cells::compact_count(static_cast<double>(k.launches)).c_str(),
        cells::compact_count(static_cast<double>(c.global_ld_requests)).c_str(),
        cells::compact_count(static_cast<double>(c.global_ld_sectors)).c_str(),
        cells::compact_count(static_cast<double>(c.global_st_requests)).c_str(),
        cells::compact_count(static_cast<double>(c.global_st_sectors)).c_str(),
        per_request(k.sectors(), requests).c_str(),
        known(k.bytes_known(), k.ideal_sectors()).c_str(),
        known(k.bytes_known(), k.waste()).c_str(),
        cells::compact_count(static_cast<double>(c.shared_ld_conflicts + c.shared_st_conflicts))
            .c_str());
    out << line << detail_line(k);
    if (k.untraced_launches)
      out << "  " << k.untraced_launches << " of its launches could not be "
          << (k.witness == profile_witness::counters ? "counted" : "traced") << ": not counted\n";
    if (k.dropped)
      out << "  " << k.dropped << " accesses lost to a full table: its counts are low\n";
  }
  out << "ideal: the sectors the bytes its lanes asked for would fill, packed; waste: sectors moved"
         " beyond them\n";
  for (const std::string& text : wrapped(
           "DRAM: bytes read from and written to device memory, and local: requests and sectors of "
           "local memory (spills), in a run of its own under CUPTI's Range Profiler (" +
               (end.why_no_range_counts.empty()
                    ? std::string("data the L2 held from before is not read again; local shown "
                                  "where there is some")
                    : "not measured: " + end.why_no_range_counts) +
               ")",
           120))
    out << text << "\n";
  for (const std::string& text :
       wrapped("time: on the GPU, in a run of its own that patched no code (" +
                   (end.why_untimed.empty() ? std::string("CUPTI's activity records")
                                            : "not measured: " + end.why_untimed) +
                   ")",
               120))
    out << text << "\n";
  if (end.witness != "tracer")
    out << "counters: CUPTI's SASS-level counts, every launch of a kernel summed; they have no "
           "bytes, so no ideal or waste\n";
  write_incomplete(out, end);
}

void write_profile_lines(std::ostream& out, const std::vector<kernel_profile>& kernels,
                         const profile_lines& lines, const program_end& end) {
  write_heading(out, end);
  if (!lines.why_none.empty())
    for (const std::string& line :
         wrapped("some accesses have no source line: " + lines.why_none, 118))
      out << "  " << line << "\n";
  for (const kernel_profile& k : kernels) {
    if (k.witness != lines.witness) continue;  // the other witness's row of the same kernel
    out << "\n"
        << fitted(k.name, 118) << " (" << k.launches << " launch" << (k.launches == 1 ? "" : "es")
        << ")\n";
    std::vector<std::vector<std::string>> cells;
    for (const line_totals& t : lines.lines)
      if (t.kernel == k.name) cells.push_back(line_cells(t.where, t));
    if (cells.empty())
      out << "  no global or shared access traced\n";
    else
      write_line_table(out, std::move(cells));
  }
  // The counters count no bytes: their lines' order is by sectors, there being no ideal.
  if (lines.witness == profile_witness::counters)
    out << "\nLines are sorted by global sectors plus shared-memory bank conflicts, summed over the"
           "\nkernel's launches (the counters count no bytes: no waste; --witness tracer has "
           "it).\n";
  else
    out << "\nLines are sorted by waste: sectors moved beyond the bytes asked for, plus "
           "shared-memory\nbank conflicts, summed over the kernel's selected launches.\n";
  write_incomplete(out, end);
}

namespace {

std::string csv_quoted(std::string text) {  // its quotes doubled: names hold commas (templates)
  for (std::size_t at = text.find('"'); at != std::string::npos; at = text.find('"', at + 2))
    text.insert(at, 1, '"');
  return '"' + text + '"';
}

nlohmann::ordered_json line_record(const line_totals& t) {
  return {{"source_line", t.where},
          {"ld_requests", t.ld_requests},
          {"ld_sectors", t.ld_sectors},
          {"st_requests", t.st_requests},
          {"st_sectors", t.st_sectors},
          {"global_bytes", t.global_bytes},
          {"shared_instructions", t.shared_instructions},
          {"shared_wavefronts", t.shared_wavefronts},
          {"shared_conflicts", t.shared_conflicts}};
}

}  // namespace

void write_profile_csv(std::ostream& out, const std::vector<kernel_profile>& kernels) {
  out << "kernel,launches,untraced_launches,dropped,ld_requests,ld_sectors,ld_bytes,st_requests,"
         "st_sectors,st_bytes,ideal_sectors,waste_sectors,shared_ld_wavefronts,"
         "shared_st_wavefronts,shared_ld_conflicts,shared_st_conflicts,witness,grid,block,time_ns,"
         "timed_launches";
  for (const trace::launch_counter& c : trace::launch_counters) out << ',' << c.column;
  out << '\n';
  for (const kernel_profile& k : kernels) {
    const model::access_counts& c = k.counts;
    // Counts a witness does not have are left empty.
    const auto bytes = [&](std::uint64_t v) {
      return k.bytes_known() ? std::to_string(v) : std::string();
    };
    out << csv_quoted(k.name) << ',' << k.launches << ',' << k.untraced_launches << ',' << k.dropped
        << ',' << c.global_ld_requests << ',' << c.global_ld_sectors << ','
        << bytes(c.global_ld_bytes) << ',' << c.global_st_requests << ',' << c.global_st_sectors
        << ',' << bytes(c.global_st_bytes) << ',' << bytes(k.ideal_sectors()) << ','
        << bytes(k.waste()) << ',' << c.shared_ld_wavefronts << ',' << c.shared_st_wavefronts << ','
        << c.shared_ld_conflicts << ',' << c.shared_st_conflicts << ',' << to_string(k.witness)
        << ',' << csv_dims(k, true) << ',' << csv_dims(k, false) << ','
        << (k.timed_launches ? std::to_string(k.nanoseconds) : std::string()) << ','
        << k.timed_launches;
    for (const trace::launch_counter& c : trace::launch_counters)
      out << ',' << (k.range_launches ? std::to_string(k.range_count(c.column)) : std::string());
    out << '\n';
  }
}

void write_profile_lines_csv(std::ostream& out, const std::vector<line_totals>& lines) {
  out << "kernel,source_line,ld_requests,ld_sectors,st_requests,st_sectors,global_bytes,"
         "shared_instructions,shared_wavefronts,shared_conflicts\n";
  for (const line_totals& t : lines)
    out << csv_quoted(t.kernel) << ',' << csv_quoted(t.where) << ',' << t.ld_requests << ','
        << t.ld_sectors << ',' << t.st_requests << ',' << t.st_sectors << ',' << t.global_bytes
        << ',' << t.shared_instructions << ',' << t.shared_wavefronts << ',' << t.shared_conflicts
        << '\n';
}

void write_profile_json(std::ostream& out, const std::vector<kernel_profile>& kernels,
                        const program_end& end, const profile_lines* lines) {
  nlohmann::ordered_json doc;
  doc["program"] = end.program;
  doc["ended"] = end.how;
  doc["complete"] = end.complete;
  doc["witness"] = end.witness;
  if (!end.why_untimed.empty()) doc["untimed"] = end.why_untimed;
  if (!end.why_no_range_counts.empty()) doc["no_range_counts"] = end.why_no_range_counts;
  if (lines && !lines->why_none.empty()) doc["no_source_line"] = lines->why_none;
  doc["kernels"] = nlohmann::ordered_json::array();
  for (const kernel_profile& k : kernels) {
    const model::access_counts& c = k.counts;
    doc["kernels"].push_back({{"kernel", k.name},
                              {"witness", to_string(k.witness)},
                              {"launches", k.launches},
                              {"untraced_launches", k.untraced_launches},
                              {"dropped", k.dropped},
                              {"ld_requests", c.global_ld_requests},
                              {"ld_sectors", c.global_ld_sectors},
                              {"ld_bytes", c.global_ld_bytes},
                              {"st_requests", c.global_st_requests},
                              {"st_sectors", c.global_st_sectors},
                              {"st_bytes", c.global_st_bytes},
                              {"ideal_sectors", k.ideal_sectors()},
                              {"waste_sectors", k.waste()},
                              {"shared_ld_wavefronts", c.shared_ld_wavefronts},
                              {"shared_st_wavefronts", c.shared_st_wavefronts},
                              {"shared_ld_conflicts", c.shared_ld_conflicts},
                              {"shared_st_conflicts", c.shared_st_conflicts}});
    // One shape: its grid and block; none known or several: null.
    auto& row = doc["kernels"].back();
    row["grid"] = nullptr;
    row["block"] = nullptr;
    if (k.shapes.size() == 1) {
      row["grid"] = k.shapes.begin()->first;
      row["block"] = k.shapes.begin()->second;
    }
    row["time_ns"] = nullptr;
    if (k.timed_launches) row["time_ns"] = k.nanoseconds;
    row["timed_launches"] = k.timed_launches;
    for (const trace::launch_counter& c : trace::launch_counters) {
      row[c.column] = nullptr;
      if (k.range_launches) row[c.column] = k.range_count(c.column);
    }
    if (!k.bytes_known())  // the counters have no bytes: null, not a made-up 0
      for (const char* key : {"ld_bytes", "st_bytes", "ideal_sectors", "waste_sectors"})
        doc["kernels"].back()[key] = nullptr;
    if (!lines || k.witness != lines->witness) continue;
    nlohmann::ordered_json& record = doc["kernels"].back();
    record["lines"] = nlohmann::ordered_json::array();
    for (const line_totals& t : lines->lines)
      if (t.kernel == k.name) record["lines"].push_back(line_record(t));
  }
  out << doc.dump(2) << '\n';
}

}  // namespace cudalab::tool
