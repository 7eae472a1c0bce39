"""scripts/profile-vs-ncu.sh: its arguments, ncu's raw CSV summed a kernel, profile's JSON read,
and the differences it reports."""
import unittest

from support import ScriptTest
from cudalab_scripts import cli, profile_vs_ncu

# What ncu prints on stdout: the program's own line, its ==PROF== lines, the header, the units row,
# then a row a launch (two launches of the tiled kernel).
NCU_OUTPUT = """transpose: n = 64, both kernels right
==PROF== Disconnected from process 4242
"ID","Kernel Name","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","l1tex__t_requests_pipe_lsu_mem_global_op_st.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
"","","request","sector","request","sector"
"0","transpose_naive","128","512","128","4,096"
"1","transpose_tiled","128","512","128","512"
"2","transpose_tiled","128","512","128","512"
"""
REPORT = {"kernels": [
    {"kernel": "transpose_naive(const float*, float*, unsigned int)", "ld_requests": 128, "ld_sectors": 512,
     "st_requests": 128, "st_sectors": 4096},
    {"kernel": "transpose_tiled(const float*, float*, unsigned int)", "ld_requests": 256, "ld_sectors": 1024,
     "st_requests": 256, "st_sectors": 1024}]}


class reading_both_tools(unittest.TestCase):
    def test_ncu_rows_summed_a_kernel_with_the_units_row_and_the_program_output_left_out(self):
        counts = profile_vs_ncu.ncu_counts(NCU_OUTPUT)
        self.assertEqual(sorted(counts), ["transpose_naive", "transpose_tiled"])
        self.assertEqual(counts["transpose_naive"]["st_sectors"], 4096)
        self.assertEqual(counts["transpose_tiled"]["ld_requests"], 256)

    def test_no_csv_in_ncu_output_is_no_kernel(self):
        self.assertEqual(profile_vs_ncu.ncu_counts("==WARNING== No kernels were profiled.\n"), {})

    def test_the_two_agree_on_these_counts(self):
        ours = profile_vs_ncu.profile_counts(REPORT)
        self.assertEqual(profile_vs_ncu.differences(ours, profile_vs_ncu.ncu_counts(NCU_OUTPUT)), [])

    def test_a_name_is_its_function_whichever_way_it_is_spelled(self):
        for spelled in ("scale", "scale(float*, int)", "void scale(float*, int)"):
            self.assertEqual(profile_vs_ncu.base_name(spelled), "scale")

    def test_every_difference_is_a_line(self):
        ours = profile_vs_ncu.profile_counts(REPORT)
        theirs = profile_vs_ncu.ncu_counts(NCU_OUTPUT)
        theirs["transpose_tiled"]["st_sectors"] += 1
        theirs["only_ncu"] = dict.fromkeys(profile_vs_ncu.METRICS, 0)
        del theirs["transpose_naive"]
        self.assertEqual(profile_vs_ncu.differences(ours, theirs), [
            "only_ncu: ncu profiled it, profile did not",
            "transpose_naive: profile reported it, ncu did not",
            "transpose_tiled: st_sectors profile 1024 ncu 1025"])


class arguments(ScriptTest):
    def test_each_bad_argument_is_one_line_and_exit_2(self):
        for args, said in (([], "usage: scripts/profile-vs-ncu.sh"), (["--"], "no PROGRAM after --"),
                           (["--bogus", "--", "true"], "unrecognized arguments: --bogus")):
            self.assertIn(said, self.assert_refused("profile-vs-ncu", args))

    def test_the_program_keeps_its_own_options(self):
        args = profile_vs_ncu.parse(["--out", "x", "--", "prog", "--size", "3"])
        self.assertEqual(args.program, ["prog", "--size", "3"])

    def test_a_missing_build_is_refused(self):
        with self.assertRaises(cli.Refusal):
            profile_vs_ncu.run(["--build", str(self.tmp / "nothing"), "--", "true"])


if __name__ == "__main__":
    unittest.main()
