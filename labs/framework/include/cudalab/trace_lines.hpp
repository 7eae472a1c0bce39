// cudalab run <lab> --lines: the traced accesses per source line, as Nsight Compute's source view
// shows them, in the terminal. Each traced pc is mapped to its file and line through the line
// table the release build's -lineinfo puts in the code (trace/line_map.hpp), and the lines are
// sorted by waste: sectors moved beyond the bytes asked for, plus shared-memory conflicts.
#pragma once

#include "cudalab/kernel_name.hpp"

#include "cudalab/result_row.hpp"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace cudalab {

// One source line's totals over a point's traced launches.
struct line_totals {
  std::string where;   // "kernels/coalescing/float3_kernels.cu:41", or "pc 0x1a0 (no line)"
  std::string kernel;  // demangled, for the heading
  std::uint64_t ld_requests = 0, ld_sectors = 0, st_requests = 0, st_sectors = 0;
  std::uint64_t global_bytes = 0;
  std::uint64_t shared_instructions = 0, shared_wavefronts = 0, shared_conflicts = 0;
  // Sectors beyond ceil(bytes / 32), plus shared conflicts: what the sort puts first.
  double waste() const;
};

// The lines of one row's trace, most wasteful first. `nvdisasm` maps pcs to lines; an empty
// path, a launch without its module's code, or code nvdisasm cannot read leaves them as pcs,
// and `why_no_lines` (optional) says why.
std::vector<line_totals> lines_of(const trace_cell& trace, const std::string& nvdisasm,
                                  std::string* why_no_lines = nullptr);

// One line's cells as the table shows them (a count of 0 as "-"), the first cell `where`.
std::vector<std::string> line_cells(const std::string& where, const line_totals& t);

// Rows of line_cells as a table within 120 columns, each line indented two spaces, under the
// heading source line, ld req, ld sect, sect/req, st req, st sect, sect/req, shared wf,
// conflicts; long paths are cut from the left, so that the line number stays.
void write_line_table(std::ostream& out, std::vector<std::vector<std::string>> cells);

// Prints, for every traced row, its lines as a table that fits 120 columns: the tracer's counts
// of each line, and under them the hardware's (row.hardware_lines) where they were measured.
// Returns the lines the two count differently ("<point>: <file:line>"), each a finding.
std::vector<std::string> write_lines_view(std::ostream& out, const std::vector<result_row>& rows,
                                          const std::string& nvdisasm);

}  // namespace cudalab
