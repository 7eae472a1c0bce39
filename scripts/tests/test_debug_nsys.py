"""scripts/debug.sh and scripts/nsys.sh: their arguments, the cuda-gdb session and how its output
is read, the nsys commands and report names, and their skips."""
import unittest

from support import ScriptTest
from cudalab_scripts import cli, debug, nsys

SESSION = """[Switching focus to CUDA kernel 0, grid 1, block (0,0,0), thread (0,0,0), device 0, sm 0, warp 0, lane 0]
== the launch, and the focus (block, thread)
$1 = {x = 0, y = 0, z = 0}
== thread 5 of the same block
[Switching focus to CUDA kernel 0, grid 1, block (0,0,0), thread (5,0,0), device 0, sm 0, warp 0, lane 5]
$6 = {
  x = 5,
  y = 0,
  z = 0
}
"""


class debug_session(unittest.TestCase):
    def test_the_first_launch_or_the_named_kernel(self):
        self.assertIn("set cuda break_on_launch application", debug.gdb_commands(""))
        named = debug.gdb_commands("reduce_sequential_kernel")
        self.assertEqual(named[4:6], ["set cuda break_on_launch none", "break reduce_sequential_kernel"])
        self.assertIn(r"echo \n== thread 5 of the same block\n", named)
        self.assertEqual(named[-2:], ["kill", "quit"])

    def test_a_stop_and_thread_5_read_back(self):
        self.assertTrue(debug.stopped_in_kernel(SESSION))
        self.assertTrue(debug.thread_5_reads_5(SESSION))
        self.assertFalse(debug.thread_5_reads_5(SESSION.replace("x = 5,", "x = 51,")))
        self.assertFalse(debug.thread_5_reads_5(SESSION.split("== thread 5")[0]))
        self.assertFalse(debug.stopped_in_kernel("warning: no CUDA kernel launched\n"))

    def test_each_bad_argument_is_refused(self):
        for argv in (["01"], ["01", "a", "b", "c"], ["--size"], ["--checks", "01", "a"]):
            with self.assertRaises(cli.Refusal) as refused:
                debug.parse(argv)
            self.assertEqual(refused.exception.status, 2, argv)


class nsys_commands(unittest.TestCase):
    def test_report_names_and_the_two_commands(self):
        self.assertEqual(nsys.report_name("02-memory-spaces", "one_stream,overlap_streams"),
                         "02-memory-spaces_one_stream_overlap_streams")
        self.assertEqual(nsys.report_name("01-thread-indexing", ""), "01-thread-indexing")
        self.assertEqual(nsys.profile_command("nsys", "cudalab", "out/r", ["run", "01"]),
                         ["nsys", "profile", "--trace=cuda,nvtx", "--sample=none", "--cpuctxsw=none",
                          "--force-overwrite=true", "--output", "out/r", "cudalab", "run", "01"])
        self.assertEqual(nsys.stats_command("nsys", "out/r"),
                         ["nsys", "stats", "--report", "nvtx_sum,cuda_gpu_kern_sum", "--format", "csv",
                          "--force-export=true", "--output", "out/r", "out/r.nsys-rep"])

    def test_each_bad_argument_is_refused(self):
        for argv in ([], ["01", "a", "b"], ["--repeat", "0", "01"], ["--repeat", "x", "01"], ["--size"]):
            with self.assertRaises(cli.Refusal) as refused:
                nsys.parse(argv)
            self.assertEqual(refused.exception.status, 2, argv)


class refusals_and_skips(ScriptTest):
    def test_debug(self):
        self.assert_refused("debug", ["--build", self.build, "99", "soa"])
        self.assert_refused("debug", ["--build", self.build, "04", "nope"])
        self.assertIn("not a Debug build", self.assert_refused("debug", ["--build", self.build, "04", "soa"], 77))
        (self.tmp / "build" / "CMakeCache.txt").write_text("CMAKE_BUILD_TYPE:STRING=Debug\n")
        self.assert_refused("debug", ["--build", self.build, "04", "soa"], 77, FAKE_DEVICE="none",
                            CUDA_GDB="/bin/true")

    def test_nsys(self):
        self.assert_refused("nsys", ["--build", self.build, "99"])
        self.assert_refused("nsys", ["--build", self.build, "04"], NSYS=str(self.tmp / "no-nsys"))
        self.assertIn("no usable CUDA device (no CUDA device: CUDA_VISIBLE_DEVICES='' leaves",
                      self.assert_refused("nsys", ["--build", self.build, "04"], 77, NSYS="/bin/true",
                                          FAKE_DEVICE="none"))


if __name__ == "__main__":
    unittest.main()
