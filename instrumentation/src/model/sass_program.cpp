#include "cudalab/model/sass_program.hpp"

#include <regex>
#include <stdexcept>

namespace cudalab::model::sass {

std::string_view instruction::base_opcode() const {
  const std::string_view op = opcode;
  return op.substr(0, op.find('.'));
}

bool instruction::conditional() const { return !guard.empty() && guard != "PT"; }

std::size_t function::index_of(std::uint32_t address) const {
  for (std::size_t i = 0; i < code.size(); ++i)
    if (code[i].address == address) return i;
  throw std::out_of_range(name + ": no instruction at address " + std::to_string(address));
}

namespace {

// "        /*0290*/               @P0 BRA 0x2d0 ;   /* 0x... */" (the encoding comment is
// on the same line for the first half of each 128-bit instruction).
const std::regex instruction_line(
    R"(^\s*/\*([0-9a-fA-F]{4,})\*/\s+(?:@(!?[A-Z]*P[0-9T])\s+)?([A-Z][A-Z0-9_.]*)\s*([^;]*);?)");
const std::regex function_line(R"(^\s*Function\s*:\s*(\S+))");
const std::regex hex_target(R"((?:^|[ ,])(0x[0-9a-fA-F]+)\s*$)");

bool names_target(std::string_view base) {
  return base == "BRA" || base == "CALL" || base == "BSSY";
}

}  // namespace

program program::parse(std::string_view text) {
  program p;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(start, end - start));
    start = end + 1;

    std::smatch m;
    if (std::regex_search(line, m, function_line)) {
      p.m_functions.push_back(function{m[1].str(), {}});
      continue;
    }
    if (line.find("/*") == std::string::npos) continue;
    if (!std::regex_search(line, m, instruction_line)) {
      // A pure encoding line: "/* 0x000fe20000000f00 */".
      if (line.find("/* 0x") != std::string::npos) continue;
      throw std::invalid_argument("SASS: cannot read the line '" + line + "'");
    }
    if (p.m_functions.empty())
      throw std::invalid_argument("SASS: an instruction before any 'Function :' line");
    instruction inst;
    inst.address = static_cast<std::uint32_t>(std::stoul(m[1].str(), nullptr, 16));
    inst.guard = m[2].str();
    inst.opcode = m[3].str();
    inst.operands = m[4].str();
    while (!inst.operands.empty() && inst.operands.back() == ' ') inst.operands.pop_back();
    if (names_target(inst.base_opcode())) {
      std::smatch t;
      if (!std::regex_search(inst.operands, t, hex_target))
        throw std::invalid_argument("SASS: no target address in '" + line + "'");
      inst.target = static_cast<std::uint32_t>(std::stoul(t[1].str(), nullptr, 16));
    }
    p.m_functions.back().code.push_back(std::move(inst));
  }
  return p;
}

const function* program::find(std::string_view name) const {
  for (const auto& f : m_functions)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace cudalab::model::sass
