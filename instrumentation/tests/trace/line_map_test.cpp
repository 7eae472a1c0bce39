// pc -> source line from real nvdisasm output (data/float3_lineinfo.nvdisasm.txt, captured from
// data/float3_lineinfo.cu built with -lineinfo for sm_90): the three component loads of the
// float3 update fall on their three `+=` lines, the store of out[i] on its own line, and the
// other kernel's shared accesses on theirs.
#include "cudalab/trace/line_map.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace cudalab::trace {
namespace {

line_table captured() {
  std::ifstream in(std::string(CUDALAB_TRACE_TEST_DATA) + "/float3_lineinfo.nvdisasm.txt");
  EXPECT_TRUE(in.good()) << "fixture missing";
  return parse_nvdisasm_lines(in);
}

const char* const update = "_Z13float3_updateP6float3S0_fi";
const char* const reverse = "_Z13reverse_blockPfi";

TEST(trace_line_map, finds_both_kernels) {
  const line_table t = captured();
  EXPECT_EQ(t.count(update), 1u);
  EXPECT_EQ(t.count(reverse), 1u);
}

TEST(trace_line_map, float3_component_loads_map_to_the_three_plus_equals_lines) {
  const line_table t = captured();
  // LDG.E at 0xd0, 0xe0, 0xf0 (in[i].x, .y, .z): source lines 8, 9, 10.
  EXPECT_EQ(line_of(t, update, 0xd0).line, 8);
  EXPECT_EQ(line_of(t, update, 0xe0).line, 9);
  EXPECT_EQ(line_of(t, update, 0xf0).line, 10);
  EXPECT_NE(line_of(t, update, 0xd0).file.find("float3_lineinfo.cu"), std::string::npos);
}

TEST(trace_line_map, the_float3_store_maps_to_its_line) {
  const line_table t = captured();
  // The write-backs of the += (0x130, 0x150, 0x160) and the three stores of out[i] = in[i].
  EXPECT_EQ(line_of(t, update, 0x130).line, 8);
  EXPECT_EQ(line_of(t, update, 0x150).line, 9);
  EXPECT_EQ(line_of(t, update, 0x160).line, 10);
  for (std::uint64_t pc : {0x170u, 0x180u, 0x190u}) EXPECT_EQ(line_of(t, update, pc).line, 11);
}

TEST(trace_line_map, shared_accesses_map_to_their_lines) {
  const line_table t = captured();
  EXPECT_EQ(line_of(t, reverse, 0x100).line, 16);  // STS s[threadIdx.x]
  EXPECT_EQ(line_of(t, reverse, 0x150).line, 18);  // LDS s[255 - threadIdx.x]
}

TEST(trace_line_map, unknown_functions_and_offsets_have_no_line) {
  const line_table t = captured();
  EXPECT_FALSE(line_of(t, "_Z7missingv", 0).known());
  EXPECT_FALSE(line_of(t, update, 0x99999).known());
}

TEST(trace_line_map, code_without_line_info_maps_nothing) {
  std::istringstream in(
      "//--------------------- .text._Z1kv --------------------------\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
      "        /*0010*/                   EXIT ;\n");
  const line_table t = parse_nvdisasm_lines(in);
  EXPECT_FALSE(line_of(t, "_Z1kv", 0).known());
}

TEST(trace_line_map, a_missing_nvdisasm_says_how_to_get_it) {
  EXPECT_THROW(disassemble_lines("", "/tmp/x.cubin"), std::exception);
}

}  // namespace
}  // namespace cudalab::trace
