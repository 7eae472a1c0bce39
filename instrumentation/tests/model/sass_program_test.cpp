// The SASS parser on text written as cuobjdump -sass prints it.
#include "cudalab/model/sass_program.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace sass = cudalab::model::sass;

namespace {

const char* const listing = R"sass(
	code for sm_90
		Function : _Z6kernelPf
	.headerflags	@"EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                  /* 0x00000a00ff017b82 */
                                                                           /* 0x000fe20000000800 */
        /*0010*/              @!P0 BRA 0x40 ;
        /*0020*/                   BSSY B0, 0x60 ;
        /*0030*/               @P1 CALL.REL.NOINC 0x70 ;
        /*0040*/               @PT EXIT ;
        /*0050*/              @!UP0 BRA 0x50;
        /*0060*/                   RET.REL.NODEC R4 0x0 ;
		..........

		Function : _Z5otherv
        /*0000*/                   EXIT ;
)sass";

}  // namespace

TEST(sass_program, reads_functions_addresses_guards_opcodes_and_targets) {
  const auto p = sass::program::parse(listing);
  ASSERT_EQ(p.functions().size(), 2u);
  const sass::function* f = p.find("_Z6kernelPf");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->code.size(), 7u);
  EXPECT_EQ(f->code[0].opcode, "LDC");
  EXPECT_EQ(f->code[0].operands, "R1, c[0x0][0x28]");
  EXPECT_FALSE(f->code[0].target.has_value());
  EXPECT_EQ(f->code[1].address, 0x10u);
  EXPECT_EQ(f->code[1].guard, "!P0");
  EXPECT_EQ(f->code[1].target, 0x40u);
  EXPECT_TRUE(f->code[1].conditional());
  EXPECT_EQ(f->code[2].base_opcode(), "BSSY");
  EXPECT_EQ(f->code[2].target, 0x60u);
  EXPECT_EQ(f->code[3].base_opcode(), "CALL");
  EXPECT_EQ(f->code[3].target, 0x70u);
  EXPECT_FALSE(f->code[4].conditional());  // @PT is always true
  EXPECT_EQ(f->code[5].guard, "!UP0");
  EXPECT_EQ(f->code[5].target, 0x50u);          // no space before ';'
  EXPECT_FALSE(f->code[6].target.has_value());  // RET returns through a register
  EXPECT_EQ(f->index_of(0x40), 4u);
  EXPECT_THROW(f->index_of(0x44), std::out_of_range);
  EXPECT_EQ(p.find("_Z5otherv")->code.size(), 1u);
  EXPECT_EQ(p.find("missing"), nullptr);
}

TEST(sass_program, rejects_instructions_it_cannot_read) {
  EXPECT_THROW(sass::program::parse("        /*0000*/   EXIT ;\n"),
               std::invalid_argument);  // no function
  EXPECT_THROW(sass::program::parse("Function : f\n        /*0000*/  @P0 BRA ;\n"),
               std::invalid_argument);  // a branch without target
  EXPECT_THROW(sass::program::parse("Function : f\n        /*0000*/  ??? ;\n"),
               std::invalid_argument);
}
