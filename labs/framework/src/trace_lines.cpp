#include "cudalab/trace_lines.hpp"

#include "cudalab/cell_format.hpp"
#include "cudalab/check.hpp"
#include "cudalab/trace/line_map.hpp"
#include "text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

namespace cudalab {
namespace {

std::string short_path(const std::string& file) {
  // From the repository's own folders on, which says where without the checkout's path.
  for (const char* root : {"/kernels/", "/labs/", "/instrumentation/"}) {
    const auto at = file.rfind(root);
    if (at != std::string::npos) return file.substr(at + 1);
  }
  const auto slash = file.rfind('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string per_request(std::uint64_t sectors, std::uint64_t requests) {
  return requests == 0 ? "-" : cells::fixed(static_cast<double>(sectors) / requests, 2);
}

std::string count(std::uint64_t v) {
  return v == 0 ? "-" : cells::with_separators(static_cast<double>(v));
}

}  // namespace

double line_totals::waste() const {
  const double ideal = std::ceil(static_cast<double>(global_bytes) / 32.0);
  return static_cast<double>(ld_sectors + st_sectors) - ideal +
         static_cast<double>(shared_conflicts);
}

std::vector<line_totals> lines_of(const trace_cell& trace, const std::string& nvdisasm,
                                  std::string* why_no_lines) {
  std::map<std::string, trace::line_table> tables;  // per cubin
  std::map<std::string, line_totals> lines;
  const auto no_lines = [&](const std::string& why) {
    if (why_no_lines && why_no_lines->empty()) *why_no_lines = why;
  };
  if (nvdisasm.empty())
    no_lines("nvdisasm not found (install the CUDA Toolkit, or scripts/setup.sh)");
  for (const trace::traced_launch& launch : trace.launches) {
    const trace::line_table* table = nullptr;
    if (launch.cubin.empty()) no_lines("the tracer did not save " + launch.kernel + "'s code");
    if (!launch.cubin.empty() && !nvdisasm.empty()) {
      auto found = tables.find(launch.cubin);
      if (found == tables.end()) {
        trace::line_table read;
        try {
          read = trace::disassemble_lines(nvdisasm, launch.cubin);
        } catch (const error& e) {
          no_lines(e.what());
        }
        found = tables.emplace(launch.cubin, std::move(read)).first;
      }
      table = &found->second;
    }
    // The driver names the kernel as the code does (mangled); a demangled name finds its
    // function by the demangled names of the table's.
    std::string function = launch.kernel;
    if (table && !table->count(function))
      for (const auto& entry : *table)
        if (kernel_display_name(entry.first) == kernel_display_name(launch.kernel))
          function = entry.first;
    if (table && !table->count(function))
      no_lines("no line table for " + launch.kernel + " (built without -lineinfo?)");
    const std::string kernel = kernel_display_name(launch.kernel);
    for (const trace::traced_pc& pc : launch.pcs) {
      if (pc.kind == trace::traced_kind::atomic) continue;
      const trace::source_line at =
          table ? trace::line_of(*table, function, pc.offset) : trace::source_line{};
      const std::string where = at.known() ? short_path(at.file) + ":" + std::to_string(at.line)
                                           : "pc " + hex(pc.offset) + " (no line)";
      line_totals& t = lines[kernel + "\n" + where];
      t.where = where;
      t.kernel = kernel;
      const bool load = pc.kind == trace::traced_kind::load;
      if (pc.space == model::memory_space::global) {
        (load ? t.ld_requests : t.st_requests) += pc.instructions;
        (load ? t.ld_sectors : t.st_sectors) += pc.sectors;
        t.global_bytes += pc.bytes;
      } else {
        t.shared_instructions += pc.instructions;
        t.shared_wavefronts += pc.wavefronts;
        t.shared_conflicts += pc.conflicts();
      }
    }
  }
  std::vector<line_totals> out;
  for (auto& [key, t] : lines) out.push_back(std::move(t));
  std::stable_sort(out.begin(), out.end(), [](const line_totals& a, const line_totals& b) {
    return a.waste() > b.waste();
  });
  return out;
}

namespace {

// The row under a traced line that holds the hardware's count of it.
const std::string hardware_label = "  hardware";

// Whether two witnesses counted a line alike, on every count the view shows.
bool same_counts(const line_totals& a, const line_totals& b) {
  return a.ld_requests == b.ld_requests && a.ld_sectors == b.ld_sectors &&
         a.st_requests == b.st_requests && a.st_sectors == b.st_sectors &&
         a.shared_wavefronts == b.shared_wavefronts && a.shared_conflicts == b.shared_conflicts;
}

std::string point_name(const result_row& row) {
  return row.variant_name +
         (row.sweep_name ? " " + *row.sweep_name + "=" + std::to_string(row.config.param)
                         : std::string()) +
         ", size " + cells::with_separators(static_cast<double>(row.config.size)) + ", block " +
         std::to_string(row.config.block);
}

}  // namespace

std::vector<std::string> line_cells(const std::string& where, const line_totals& t) {
  return {where,
          count(t.ld_requests),
          count(t.ld_sectors),
          per_request(t.ld_sectors, t.ld_requests),
          count(t.st_requests),
          count(t.st_sectors),
          per_request(t.st_sectors, t.st_requests),
          count(t.shared_wavefronts),
          count(t.shared_conflicts)};
}

void write_line_table(std::ostream& out, std::vector<std::vector<std::string>> cells) {
  const std::vector<text_column> columns{{"source line", true}, {"ld req"},    {"ld sect"},
                                         {"sect/req"},          {"st req"},    {"st sect"},
                                         {"sect/req"},          {"shared wf"}, {"conflicts"}};
  // Paths are cut from the left only as far as 120 columns need: the line number stays.
  std::vector<std::string> table = layout_table(columns, cells);
  const std::size_t widest = widest_line(table) + 2;
  if (widest > 120) {
    std::size_t longest = 0;
    for (const auto& row : cells) longest = std::max(longest, row[0].size());
    const std::size_t keep = longest > widest - 120 + 3 ? longest - (widest - 120) - 3 : 0;
    for (auto& row : cells)
      if (row[0] != hardware_label && row[0].size() > keep + 3)
        row[0] = "..." + row[0].substr(row[0].size() - keep);
    table = layout_table(columns, cells);
  }
  for (const auto& line : table) out << "  " << line << "\n";
}

std::vector<std::string> write_lines_view(std::ostream& out, const std::vector<result_row>& rows,
                                          const std::string& nvdisasm) {
  std::vector<std::string> mismatches;
  bool any_hardware = false;
  for (const result_row& row : rows) {
    if (!row.trace) continue;
    out << point_name(row) << "\n";
    if (!row.trace->available) {
      out << "  trace n/a (" << row.trace->reason << ")\n\n";
      continue;
    }
    std::string why_no_lines;
    const auto lines = lines_of(*row.trace, nvdisasm, &why_no_lines);
    // The hardware's lines by kernel and line, each shown under the tracer's line it matches.
    const bool hardware = row.hardware_lines && row.hardware_lines->available;
    std::map<std::string, line_totals> by_line;
    if (hardware) {
      any_hardware = true;
      for (line_totals& t : lines_of(*row.hardware_lines, nvdisasm, &why_no_lines))
        by_line[t.kernel + "\n" + t.where] = std::move(t);
    }
    std::vector<std::vector<std::string>> cells;
    for (const line_totals& t : lines) {
      cells.push_back(line_cells(t.where, t));
      if (!hardware) continue;
      const auto found = by_line.find(t.kernel + "\n" + t.where);
      const line_totals counted = found == by_line.end() ? line_totals{} : found->second;
      if (found != by_line.end()) by_line.erase(found);
      cells.push_back(line_cells(hardware_label, counted));
      if (!same_counts(t, counted)) mismatches.push_back(point_name(row) + ": " + t.where);
    }
    for (const auto& [key, t] : by_line) {  // lines only the hardware counted
      cells.push_back(line_cells(t.where + " (hardware only)", t));
      mismatches.push_back(point_name(row) + ": " + t.where + " (not traced)");
    }
    std::string kernels;
    for (const line_totals& t : lines)
      if (kernels.find(t.kernel) == std::string::npos)
        kernels += (kernels.empty() ? "" : ", ") + t.kernel;
    out << "  kernels: " << (kernels.empty() ? "(no memory access traced)" : kernels) << "\n";
    if (!why_no_lines.empty()) out << "  (some pcs have no source line: " << why_no_lines << ")\n";
    if (row.hardware_lines && !row.hardware_lines->available)
      for (const std::string& line :
           wrap_words("hardware counts n/a (" + row.hardware_lines->reason + ")", 116))
        out << "  " << line << "\n";
    write_line_table(out, std::move(cells));
    out << "\n";
  }
  out << "Lines are sorted by waste: sectors moved beyond the bytes asked for, plus shared-memory\n"
         "bank conflicts. Counts come from the tracer (one launch a point, the binary that ran)"
      << (any_hardware
              ? ";\nunder each line, `hardware`: the SASS-level counters' count of the same "
                "line in the same launch\n(CUPTI's SASS Metrics API, a process a kernel "
                "function).\n"
              : ".\n");
  return mismatches;
}

}  // namespace cudalab
