"""scripts/sanitize.sh: its arguments, its plan, compute-sanitizer's logs read back, its summary,
and a whole run against a stand-in compute-sanitizer (data/fake_compute_sanitizer)."""
import json
import unittest
from types import SimpleNamespace

from support import DATA, ScriptTest, run_script
from cudalab_scripts import cli, sanitize

LABS = json.loads((DATA / "labs.json").read_text())["labs"]


def log(case):
    return (DATA / f"sanitizer_{case}.log").read_text()


class arguments(unittest.TestCase):
    def refused(self, argv):
        with self.assertRaises(cli.Refusal) as refused:
            sanitize.parse(argv)
        self.assertEqual(refused.exception.status, 2)
        return str(refused.exception)

    def test_each_bad_argument_is_refused_with_its_reason(self):
        self.assertIn("--jobs '0' must be a positive whole number", self.refused(["--jobs", "0"]))
        self.assertIn("--jobs 'x'", self.refused(["--jobs", "x"]))
        self.assertIn("unknown tool 'asan'", self.refused(["--tools", "memcheck,asan"]))
        self.assertIn("--tools is empty", self.refused(["--tools", ""]))
        self.assertIn("too many arguments", self.refused(["04", "soa", "memcheck", "more"]))
        self.assertIn("--expect-errors needs a lab", self.refused(["--expect-errors"]))
        self.assertIn("unrecognized arguments: --frobnicate", self.refused(["--frobnicate"]))
        self.assertIn("--out: expected one argument", self.refused(["04", "--out"]))

    def test_a_third_argument_is_the_one_tool_and_its_findings_are_reported(self):
        args = sanitize.parse(["07-debugging", "oob_write", "leak"])
        self.assertEqual((args.tool_list, args.expect), (["leak"], "report"))
        args = sanitize.parse(["--expect-errors", "07", "oob_write", "memcheck"])
        self.assertEqual(args.expect, "errors")

    def test_options_may_follow_the_lab(self):
        args = sanitize.parse(["04", "--tools", "racecheck", "soa", "--jobs", "16", "--size", "4096"])
        self.assertEqual((args.positional, args.tool_list, args.jobs, args.size),
                         (["04", "soa"], ["racecheck"], 16, "4096"))
        self.assertEqual(str(args.out), args.build + "/sanitize")


class plan(unittest.TestCase):
    def jobs(self, argv, lab_list=LABS):
        return {j.variant: j for j in sanitize.make_plan(lab_list, sanitize.parse(argv))}

    def test_over_every_lab_buggy_variants_are_reported_and_the_rest_must_be_clean(self):
        jobs = self.jobs([])
        self.assertEqual(jobs["no_guard"].expectation, "report")
        self.assertEqual({jobs[v].expectation for v in ("aos_float3", "soa", "offset", "tiled", "cublas")},
                         {"clean"})
        self.assertNotIn("exercise", jobs)

    def test_a_named_lab_must_be_clean_even_where_buggy(self):
        self.assertEqual(self.jobs(["04"], LABS[:1])["no_guard"].expectation, "clean")

    def test_expect_errors_and_the_one_tool_form(self):
        self.assertEqual(self.jobs(["--expect-errors", "04", "no_guard"], LABS[:1])["no_guard"].expectation,
                         "errors")
        self.assertEqual(self.jobs(["04", "no_guard", "memcheck"], LABS[:1])["no_guard"].expectation, "report")

    def test_size_is_the_labs_own_unless_given(self):
        self.assertEqual({j.size for j in self.jobs([]).values()}, {"1000003", "77"})
        self.assertEqual({j.size for j in self.jobs(["--size", "4097"]).values()}, {"4097"})

    def test_the_command_line_as_compute_sanitizer_runs_it(self):
        job = self.jobs([])["offset"]
        self.assertEqual(sanitize.sanitizer_command("cs", "cudalab", job, "leak"),
                         ["cs", "--tool", "memcheck", "--leak-check", "full", "--error-exitcode", "86",
                          "--print-limit", "20", "cudalab", "run", "04-coalescing", "--variant", "offset",
                          "--no-counters", "--warmup", "0", "--repeat", "1", "--size", "1000003",
                          "--sweep", "0,32"])


class reading_the_logs(unittest.TestCase):
    def test_memcheck_counts_every_error_not_only_those_printed(self):
        self.assertEqual(sanitize.read_log(log("memcheck"), 86), sanitize.Result("errors", 196))

    def test_racecheck_counts_from_its_hazard_summary(self):
        self.assertEqual(sanitize.read_log(log("racecheck"), 86), sanitize.Result("errors", 1))

    def test_a_clean_run_needs_its_summary_and_exit_0(self):
        self.assertEqual(sanitize.read_log(log("clean"), 0), sanitize.Result("clean", 0))
        self.assertEqual(sanitize.read_log(log("clean"), 1), sanitize.Result("failed", 1))

    def test_a_crash_without_a_summary_is_a_failed_run_never_clean(self):
        self.assertEqual(sanitize.read_log(log("crash"), 134), sanitize.Result("failed", 134))
        self.assertEqual(sanitize.read_log(log("crash"), 0), sanitize.Result("failed", 0))

    def test_an_unsupported_device_is_said_so(self):
        self.assertEqual(sanitize.read_log(log("unsupported"), 1).kind, "unsupported")


class summary(unittest.TestCase):
    TOOLS = ["memcheck", "racecheck", "synccheck", "initcheck"]

    def test_verdicts(self):
        job = SimpleNamespace(expectation="clean")
        clean, errors, failed = (sanitize.Result("clean", 0), sanitize.Result("errors", 3),
                                 sanitize.Result("failed", 1))
        self.assertEqual(sanitize.verdict(job, [clean, clean]), ("clean as expected", True))
        self.assertEqual(sanitize.verdict(job, [clean, errors]), ("UNEXPECTED ERRORS", False))
        job.expectation = "errors"
        self.assertEqual(sanitize.verdict(job, [clean, errors]), ("errors as expected", True))
        self.assertEqual(sanitize.verdict(job, [clean]), ("NO ERROR FOUND (expected some)", False))
        job.expectation = "report"
        self.assertEqual(sanitize.verdict(job, [errors]), ("buggy: reported, not asserted", True))
        self.assertEqual(sanitize.verdict(job, [errors, failed]), ("RUN FAILED", False))

    def test_the_widest_rows_fit_120_columns(self):
        job = sanitize.Job("03-shared-memory-tiling", "divergent_barrier_fixed", "errors", None, "1000003")
        results = {(job, t): sanitize.Result("errors", 127168) for t in self.TOOLS}
        results[job, "initcheck"] = sanitize.Result("failed", 134)
        results[job, "memcheck"] = sanitize.Result("unsupported", None)
        lines = sanitize.summary_lines([job], self.TOOLS, results, lambda j, t: [f"      {t} findings"])
        self.assertEqual(lines[0], "03-shared-memory-tiling (size 1000003)")
        self.assertIn("RUN FAILED", lines[2])
        self.assertIn("    initcheck: exit 134, see 03-shared-memory-tiling/divergent_barrier_fixed.initcheck.log",
                      lines)
        self.assertIn("      racecheck findings", lines)
        for line in lines:
            self.assertLessEqual(len(line), 120, line)


class whole_runs(ScriptTest):
    def sanitize(self, args, **environment):
        return self.run_on_fake_build("sanitize", "COMPUTE_SANITIZER", "fake_compute_sanitizer", args,
                                      **environment)

    def test_a_planted_bug_expected_clean_fails_and_each_log_is_where_it_was(self):
        code, out, err = self.sanitize(["--tools", "memcheck,racecheck", "04", "soa,no_guard"])
        self.assertEqual(code, 1, err)
        self.assertIn("UNEXPECTED ERRORS", out)
        self.assertIn("sanitize.sh: NOT as expected", out)
        for name in ("soa.memcheck.log", "soa.racecheck.log", "no_guard.memcheck.log", "no_guard.racecheck.log"):
            self.assertTrue((self.tmp / "out" / "04-coalescing" / name).exists(), name)
        summary = (self.tmp / "out" / "summary.txt").read_text()
        self.assertIn("no_guard                 196 errors    clean         UNEXPECTED ERRORS", summary)
        self.assertIn("compute-sanitizer --tool racecheck --error-exitcode 86 --print-limit 20 cudalab run "
                      "04-coalescing --variant soa --no-counters --warmup 0 --repeat 1 --size 1000003",
                      self.calls.read_text())

    def test_the_one_tool_form_reports_and_expect_errors_asserts(self):
        code, out, err = self.sanitize(["04", "no_guard", "memcheck"])
        self.assertEqual(code, 0, err)
        self.assertIn("buggy: reported, not asserted", out)
        code, out, err = self.sanitize(["--expect-errors", "--tools", "racecheck", "04", "no_guard"])
        self.assertEqual(code, 1, err)
        self.assertIn("NO ERROR FOUND (expected some)", out)

    def test_every_lab_with_buggy_variants_reported_passes(self):
        code, out, err = self.sanitize(["--tools", "memcheck", "--jobs", "3"])
        self.assertEqual(code, 0, err)
        self.assertIn("sanitize.sh: 6 variant(s) x 1 tool(s)", out)
        self.assertIn("09-new-lab (size 77)", out)
        self.assertIn("--sweep 0,32", self.calls.read_text())
        for line in out.splitlines():
            self.assertLessEqual(len(line), 120, line)

    def test_a_crashed_run_fails_the_script(self):
        code, out, _ = self.sanitize(["--tools", "initcheck", "04", "soa"], FAKE_SANITIZER="crash")
        self.assertEqual(code, 1)
        self.assertIn("initcheck: exit 134, see 04-coalescing/soa.initcheck.log", out)

    def test_skips_without_a_device_a_sanitizer_or_a_supported_device(self):
        self.assert_refused("sanitize", ["--build", self.build, "04"], 77, FAKE_DEVICE="none",
                            COMPUTE_SANITIZER=str(DATA / "fake_compute_sanitizer"))
        err = self.assert_refused("sanitize", ["--build", self.build, "04"], 77, PATH="/usr/bin:/bin")
        if "compute-sanitizer not found" not in err:  # a toolkit in /usr/local/cuda/bin was found
            self.assertIn("no usable CUDA device", err)
        code, _, err = self.sanitize(["04", "soa"], FAKE_SANITIZER="unsupported")
        self.assertEqual(code, 77)
        self.assertIn("SKIP: compute-sanitizer does not support this device", err)

    def test_bad_arguments_before_any_work(self):
        self.assert_refused("sanitize", ["--build", self.build, "99"])
        self.assert_refused("sanitize", ["--build", self.build, "04", "soa,nope"])
        self.assert_refused("sanitize", ["--build", self.build, "--jobs", "-1"])
        self.assert_refused("sanitize", ["--build", str(self.tmp / "none"), "04"], 1)
        self.assertFalse((self.tmp / "out").exists())

    def test_help_is_the_header(self):
        code, out, _ = run_script("sanitize", ["--help"])
        self.assertEqual(code, 0)
        self.assertTrue(out.startswith("scripts/sanitize.sh [options] [<lab> [variant[,variant...] [tool]]]"))


if __name__ == "__main__":
    unittest.main()
