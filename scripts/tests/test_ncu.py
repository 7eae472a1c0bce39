"""scripts/ncu.sh: its arguments, the metric names it asks `cudalab metrics` for, ncu's raw CSV
read back, and a whole run against a stand-in ncu (data/fake_ncu)."""
import unittest

from support import DATA, ScriptTest, run_script
from cudalab_scripts import cli, ncu

NAMES = ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]


class reading_the_csv(unittest.TestCase):
    def test_one_row_a_kernel_and_the_units_row_left_out(self):
        rows = ncu.kernel_rows(DATA / "ncu_raw.csv")
        self.assertEqual([r["ID"] for r in rows], ["0", "1"])
        self.assertEqual(rows[1][NAMES[0]], "125,001")

    def test_each_kernel_then_its_metrics_within_120_columns(self):
        lines = ncu.metric_lines(ncu.kernel_rows(DATA / "ncu_raw.csv"), NAMES + ["not_collected"])
        self.assertEqual(len(lines), 6)
        self.assertTrue(lines[0].startswith("  void cudalab::coalescing::aos_float3_naive_kernel"))
        self.assertEqual(lines[1].split(), [NAMES[0], "375000"])
        for line in lines:
            self.assertLessEqual(len(line), 120, line)


class arguments(unittest.TestCase):
    def test_each_bad_argument_is_refused(self):
        for argv, said in ((["04"], "usage: scripts/ncu.sh"), (["04", "soa", "memory", "x"], "too many"),
                           (["04", "soa", "--sweep"], "expected one argument")):
            with self.assertRaises(cli.Refusal) as refused:
                ncu.parse(argv)
            self.assertEqual(refused.exception.status, 2)
            self.assertIn(said, str(refused.exception))

    def test_the_metrics_default_to_memory_and_options_may_follow(self):
        args = ncu.parse(["06", "shared_stride", "shared", "--sweep", "16"])
        self.assertEqual((args.lab, args.variant, args.metrics, args.sweep), ("06", "shared_stride", "shared", "16"))
        self.assertEqual(ncu.parse(["04", "soa"]).metrics, "memory")


class whole_runs(ScriptTest):
    def ncu(self, args, **environment):
        return self.run_on_fake_build("ncu", "NCU", "fake_ncu", args, **environment)

    def test_the_profile_its_files_and_the_table(self):
        code, out, err = self.ncu(["04", "offset", "--sweep", "1"])
        self.assertEqual(code, 0, err)
        for suffix in (".ncu-rep", ".csv", ".log"):
            self.assertTrue((self.tmp / "out" / f"04-coalescing_offset{suffix}").exists(), suffix)
        self.assertIn("ncu.sh: 2 kernel launch(es) profiled", out)
        self.assertIn("ncu --nvtx --nvtx-include cudalab@04-coalescing/offset/ --metrics " + ",".join(NAMES) +
                      " --clock-control none --force-overwrite --export 04-coalescing_offset cudalab run "
                      "04-coalescing --variant offset --no-counters --warmup 0 --repeat 1 --sweep 1",
                      self.calls.read_text())
        for line in out.splitlines():
            self.assertLessEqual(len(line), 120, line)

    def test_restricted_counters_and_no_kernel_fail_with_the_reason(self):
        code, _, err = self.ncu(["04", "soa"], FAKE_NCU="perm")
        self.assertEqual(code, 1)
        self.assertIn("ERR_NVGPUCTRPERM", err)
        code, _, err = self.ncu(["04", "soa"], FAKE_NCU="nothing")
        self.assertEqual(code, 1)
        self.assertIn("ncu profiled no kernel inside the NVTX range cudalab@04-coalescing/soa/", err)

    def test_bad_arguments_before_any_work_and_skips(self):
        self.assert_refused("ncu", ["--build", self.build, "99", "soa"])
        self.assert_refused("ncu", ["--build", self.build, "04", "nope"])
        self.assertIn("bad metrics 'bogus': unknown metric 'bogus'",
                      self.assert_refused("ncu", ["--build", self.build, "04", "soa", "bogus"]))
        self.assert_refused("ncu", ["--build", self.build, "04", "soa"], NCU=str(self.tmp / "no-ncu"))
        self.assert_refused("ncu", ["--build", self.build, "04", "soa"], 77, NCU=str(DATA / "fake_ncu"),
                            FAKE_DEVICE="none")
        self.assertFalse((self.tmp / "out").exists())


if __name__ == "__main__":
    unittest.main()
