"""scripts/barrier-probes.sh: how a probe's run and synccheck's report are read, how a measurement
is compared with the committed table, a hung run stopped, and its refusals."""
import sys
import unittest

from support import ScriptTest
from cudalab_scripts import barrier_probes, cli

SYNCCHECK_DIVERGENT = """========= COMPUTE-SANITIZER
========= Barrier error detected. Divergent thread(s) in block.
=========     at warps_at_two_barriers(float *)+0x320
=========     by thread (192,0,0) in block (8,0,0)
=========
the kernel failed: unspecified launch failure
========= ERROR SUMMARY: 64 errors
"""
SYNCCHECK_CLEAN = "========= COMPUTE-SANITIZER\nran to the end\n========= ERROR SUMMARY: 0 errors\n"


class reading_runs(unittest.TestCase):
    def test_a_run_alone_ends_hangs_or_fails(self):
        self.assertEqual(barrier_probes.without_tool(0, "ran to the end\n"), "to the end")
        self.assertEqual(barrier_probes.without_tool(None, ""), "hangs")
        self.assertEqual(barrier_probes.without_tool(
            1, "cudaErrorIllegalInstruction (an illegal instruction was encountered) in cudaDeviceSynchronize() "
               "at /home/x/barrier_probes.cu:124\n"),
            "fails: cudaErrorIllegalInstruction (an illegal instruction was encountered)")
        with self.assertRaises(cli.Refusal):  # a crash is no outcome of the table
            barrier_probes.without_tool(139, "")

    def test_synccheck_gives_its_first_headline_nothing_or_a_hang(self):
        self.assertEqual(barrier_probes.first_report(1, SYNCCHECK_DIVERGENT),
                         "Barrier error detected. Divergent thread(s) in block.")
        self.assertEqual(barrier_probes.first_report(0, SYNCCHECK_CLEAN), "nothing")
        self.assertEqual(barrier_probes.first_report(None, "========= COMPUTE-SANITIZER\n"), "hangs")
        with self.assertRaises(cli.Refusal):  # no error and no clean end: not "nothing"
            barrier_probes.first_report(0, "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n")
        with self.assertRaises(cli.Refusal):  # the sanitizer's own failure is no report
            barrier_probes.first_report(1, "========= COMPUTE-SANITIZER\n========= Error: Target application "
                                           "terminated before first instrumented API call\n")

    def test_a_run_past_its_time_is_stopped_with_its_children(self):
        status, output = barrier_probes.run_for(
            [sys.executable, "-c", "import subprocess, sys; print('started', flush=True); "
             "subprocess.run([sys.executable, '-c', 'import time; time.sleep(60)'])"], 1)
        self.assertIsNone(status)
        self.assertIn("started", output)
        self.assertEqual(barrier_probes.run_for([sys.executable, "-c", "print('ran to the end')"], 10),
                         (0, "ran to the end\n"))


class comparing(unittest.TestCase):
    def row(self, form, alone, checked):
        return {"form": form, "without_tool": alone, "synccheck": checked}

    def test_equal_outcomes_pass_and_each_difference_is_a_line(self):
        committed = [self.row("a", "to the end", "nothing"), self.row("b", "hangs", "hangs")]
        self.assertEqual(barrier_probes.differences([dict(r) for r in committed], committed), [])
        measured = [self.row("a", "to the end", "Invalid arguments"), self.row("c", "to the end", "nothing")]
        self.assertEqual(barrier_probes.differences(measured, committed),
                         ["a: synccheck 'Invalid arguments', the table says 'nothing'",
                          "c: measured, not in the committed table", "b: in the committed table, not measured"])


class arguments(ScriptTest):
    def test_bad_arguments_are_one_line(self):
        self.assert_refused("barrier-probes", ["--output", "a", "--check", "b"])
        self.assert_refused("barrier-probes", ["--check", str(self.tmp / "none.csv")])
        self.assert_refused("barrier-probes", ["--timeout", "0"])
        self.assert_refused("barrier-probes", ["extra"])
        self.assert_refused("barrier-probes", ["--output", str(self.tmp / "no" / "such" / "x.csv")])
        err = self.assert_refused("barrier-probes", ["--build", self.build], status=cli.FAILED)
        self.assertIn("no cudalab_barrier_probes in", err)
