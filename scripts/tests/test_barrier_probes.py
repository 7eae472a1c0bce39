"""scripts/barrier-probes.sh: how a probe's run and synccheck's report are read, how a measurement
is compared with the committed table, a hung run stopped, and its refusals."""
import csv
import io
import stat
import sys
import unittest

from support import ScriptTest, run_script
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
        for bad in ("-5", "abc", "1e3", "601", "99999999999999999999999"):
            self.assert_refused("barrier-probes", ["--timeout", bad])
        self.assert_refused("barrier-probes", ["extra"])
        self.assert_refused("barrier-probes", ["--output", str(self.tmp / "no" / "such" / "x.csv")])
        err = self.assert_refused("barrier-probes", ["--build", self.build], status=cli.FAILED)
        self.assertIn("no cudalab_barrier_probes in", err)


# Stand-ins: a probe with two forms (the second hangs alone when PROBE_HANGS names it), a
# sanitizer that reports a divergent block for the first and, for the second, runs past any limit
# when FAKE_SYNCCHECK_SLOW is set, and nvidia-smi.
PROBE = """#!/usr/bin/env python3
import os, sys, time
forms = {"split": "threads split between barriers", "exits": "a warp exits"}
if sys.argv[1] == "list":
    for name, misuse in forms.items():
        print(name + "\t" + misuse)
    sys.exit(0)
if sys.argv[1] == os.environ.get("PROBE_HANGS"):
    time.sleep(60)
print("ran to the end")
"""
SANITIZER = """#!/usr/bin/env python3
import os, sys, time
form = sys.argv[-1]
print("========= COMPUTE-SANITIZER")
if form == "split":
    print("========= Barrier error detected. Divergent thread(s) in block.")
    print("=========     at k()+0x10")
    print("========= ERROR SUMMARY: 8 errors")
    sys.exit(1)
if os.environ.get("FAKE_SYNCCHECK_SLOW"):
    time.sleep(60)
print("ran to the end")
print("========= ERROR SUMMARY: 0 errors")
"""
SMI = """#!/bin/sh
echo "NVIDIA H200, 580.159.04"
"""


class measuring(ScriptTest):
    def setUp(self):
        super().setUp()
        folder = self.tmp / "build" / "labs" / "07-debugging"
        folder.mkdir(parents=True)
        self.tools = {}
        for name, text in (("probe", PROBE), ("sanitizer", SANITIZER), ("smi", SMI)):
            path = (folder / "cudalab_barrier_probes") if name == "probe" else (self.tmp / name)
            path.write_text(text)
            path.chmod(path.stat().st_mode | stat.S_IXUSR)
            self.tools[name] = str(path)

    def measure(self, *args, **environment):
        return run_script("barrier-probes", ["--build", self.build, "--timeout", "2", *args],
                          COMPUTE_SANITIZER=self.tools["sanitizer"], NVIDIA_SMI=self.tools["smi"],
                          **environment)

    def test_each_form_alone_and_under_synccheck_with_its_card(self):
        code, out, err = self.measure()
        self.assertEqual(code, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual([(r["form"], r["without_tool"], r["synccheck"], r["card"]) for r in rows],
                         [("split", "to the end", "Barrier error detected. Divergent thread(s) in block.",
                           "NVIDIA H200"), ("exits", "to the end", "nothing", "NVIDIA H200")])
        committed = self.tmp / "table.csv"
        committed.write_text(out)
        self.assertEqual(self.measure("--check", str(committed))[0], 0)
        committed.write_text(out.replace(",nothing,", ",Barrier error detected. Invalid arguments.,"))
        code, _, err = self.measure("--check", str(committed))
        self.assertEqual(code, 1)
        self.assertIn("exits: synccheck 'nothing', the table says", err)

    def test_a_form_that_hangs_alone_hangs_under_synccheck_too_but_a_slow_synccheck_is_refused(self):
        code, out, err = self.measure(PROBE_HANGS="exits", FAKE_SYNCCHECK_SLOW="1")
        self.assertEqual(code, 0, err)
        self.assertIn("exits,a warp exits,hangs,hangs,", out)
        code, out, err = self.measure(FAKE_SYNCCHECK_SLOW="1")
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        self.assertIn("exits: still running under synccheck after 2 s though it ends alone", err)
