#include "cudalab/trace/line_map.hpp"

#include "cudalab/check.hpp"

#include <cstdio>
#include <memory>
#include <regex>
#include <sstream>

namespace cudalab::trace {
namespace {

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

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
  const std::string command =
      shell_quoted(nvdisasm) + " --print-line-info " + shell_quoted(cubin) + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) throw error("cannot run " + nvdisasm);
  std::string output;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe.get())) > 0;)
    output.append(buffer, n);
  const int status = pclose(pipe.release());
  if (status != 0) {
    const auto first = output.substr(0, output.find('\n'));
    throw error("nvdisasm failed on " + cubin + ": " + first);
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
