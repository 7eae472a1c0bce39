// The SASS of a binary, as `cuobjdump -sass` prints it, parsed into functions of instructions.
//
// The access model predicts memory traffic from a kernel's index functions; instruction
// counts (warp instructions, thread instructions, branch targets) also depend on what the
// compiler emitted: how many instructions a loop step takes, which `if` became a branch and
// which was predicated. The build embeds the SASS of the kernels it compiled (cmake/
// embed_sass.cmake), and this parser turns it into something a warp walk can execute:
//
//         /*0290*/               @P0 BRA 0x2d0 ;      ->  {0x290, "P0", "BRA", "0x2d0", 0x2d0}
//
// Only control flow is interpreted (BRA, EXIT, CALL, RET, BSSY, BSYNC); every other
// instruction is just counted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab::model::sass {

struct instruction {
  std::uint32_t address = 0;
  std::string guard;     // "" (always executes), "P0", "!P1", "PT", ...
  std::string opcode;    // with its modifiers: "BRA", "CALL.REL.NOINC", "RET.REL.NODEC"
  std::string operands;  // the rest of the line, without the final ';'
  std::optional<std::uint32_t> target;  // BRA, CALL, BSSY: the address they name

  // The opcode without modifiers: "CALL" for "CALL.REL.NOINC".
  std::string_view base_opcode() const;
  // Guarded by a predicate that can be false (not "" and not "PT").
  bool conditional() const;
};

struct function {
  std::string name;  // the mangled name cuobjdump prints after "Function :"
  std::vector<instruction> code;

  // The index of the instruction at `address`; throws std::out_of_range if none is there.
  std::size_t index_of(std::uint32_t address) const;
};

class program {
 public:
  // Parses cuobjdump -sass output (one or more "Function : <name>" sections). Encoding-only
  // lines and headers are skipped. Throws std::invalid_argument on an instruction line it
  // cannot read.
  static program parse(std::string_view cuobjdump_text);

  const std::vector<function>& functions() const { return m_functions; }
  // The function whose mangled name is `name`, or nullptr.
  const function* find(std::string_view name) const;

 private:
  std::vector<function> m_functions;
};

}  // namespace cudalab::model::sass
