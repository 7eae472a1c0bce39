#include "cudalab/trace/line_map.hpp"

#include "cudalab/check.hpp"
#include "cudalab/child_process.hpp"

#include <regex>
#include <sstream>

namespace cudalab::trace {
line_table parse_nvdisasm_lines(std::istream& in) {
  static const std::regex section(R"re(^\s*//-+\s+\.text\.(\S+)\s+-+\s*$)re");
  static const std::regex file_line(R"re(^\s*//## File "([^"]*)", line (\d+))re");
  static const std::regex instruction(R"re(^\s*/\*([0-9a-fA-F]+)\*/\s+\S)re");
  line_table table;
  std::string function;
  source_line current;
  std::string text;
  std::smatch m;
  while (std::getline(in, text)) {
    if (std::regex_search(text, m, section)) {
      function = m[1];
      current = {};
      continue;
    }
    if (text.find("//---") != std::string::npos) {  // another section: not code
      function.clear();
      continue;
    }
    if (function.empty()) continue;
    if (std::regex_search(text, m, file_line)) {
      current = {m[1], std::stoi(m[2])};
      continue;
    }
    if (current.known() && std::regex_search(text, m, instruction))
      table[function][std::stoull(m[1].str(), nullptr, 16)] = current;
  }
  return table;
}

line_table disassemble_lines(const std::string& nvdisasm, const std::string& cubin) {
  if (nvdisasm.empty())
    throw error("--lines needs nvdisasm, which was not found",
                "install the CUDA Toolkit (or run scripts/setup.sh) so that nvdisasm is on PATH");
  child_spec spec;
  spec.argv = {nvdisasm, "--print-line-info", cubin};
  spec.capture_output = true;
  spec.deadline_seconds = 120;  // a cubin of a few MB takes seconds; never wait forever
  const child_result r = run_child(spec);
  const std::string& output = r.output;
  if (!r.exited_with(0)) {
    const auto first = output.substr(0, output.find('\n'));
    throw error("nvdisasm failed on " + cubin + " (" + r.describe() + "): " + first);
  }
  std::istringstream in(output);
  return parse_nvdisasm_lines(in);
}

source_line line_of(const line_table& table, const std::string& function, std::uint64_t offset) {
  const auto f = table.find(function);
  if (f == table.end()) return {};
  const auto l = f->second.find(offset);
  return l == f->second.end() ? source_line{} : l->second;
}

}  // namespace cudalab::trace
