// From a traced pc to its source line: the kernels are built with -lineinfo (release), so the
// module's code carries a line table; nvdisasm --print-line-info prints it beside every
// instruction ("//## File "<path>", line N" before the instructions of that line).
#pragma once

#include <cstdint>
#include <istream>
#include <map>
#include <string>

namespace cudalab::trace {

struct source_line {
  std::string file;
  int line = 0;
  bool known() const { return line > 0; }
};

// Per function (mangled name): instruction offset -> its line.
using line_table = std::map<std::string, std::map<std::uint64_t, source_line>>;

// Parses nvdisasm --print-line-info output.
line_table parse_nvdisasm_lines(std::istream& in);

// Runs `nvdisasm --print-line-info` on a cubin; throws cudalab::error with nvdisasm's reason.
line_table disassemble_lines(const std::string& nvdisasm, const std::string& cubin);

// The line of `offset` in `function`; unknown when the table has none.
source_line line_of(const line_table& table, const std::string& function, std::uint64_t offset);

}  // namespace cudalab::trace
