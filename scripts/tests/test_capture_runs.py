"""scripts/capture-readme-runs.sh: every command of table_specs.RUNS run once against a stand-in tool
and a stand-in nvidia-smi, each output and its provenance row where the renderer reads them, a
failing command named after the others ran, and a capture that renders into a doc."""
import csv
import stat
import unittest
from pathlib import Path

from support import ScriptTest, run_script
from cudalab_scripts import capture_runs, table_specs

# The tool: `device` finds a GPU; any other command prints its arguments on stdout and a note on
# stderr and exits 1 for `check` (an untouched exercise fails), 0 otherwise, or as $FAKE_EXIT
# says for the command that $FAKE_FAIL names.
TOOL = """#!/usr/bin/env python3
import os, sys
args = " ".join(sys.argv[1:])
if args == "device":
    sys.exit(0)
print("device: NVIDIA H100 80GB HBM3 (sm_90)")
print("output of " + args + "   ")
print("cudalab: note: " + os.getcwd(), file=sys.stderr)
if args == os.environ.get("FAKE_FAIL"):
    print("cudalab: MODEL MISMATCH in 07-debugging/oob_write", file=sys.stderr)
    sys.exit(int(os.environ.get("FAKE_EXIT", "4")))
sys.exit(1 if args.startswith("check ") else 0)
"""
SMI = """#!/bin/sh
echo "$@" >> "$FAKE_SMI_CALLS"
echo "NVIDIA H100 80GB HBM3, 580.159.04"
"""
ROOT = Path(__file__).resolve().parents[2]


class capture(ScriptTest):
    def setUp(self):
        super().setUp()
        self.out = self.tmp / "out"
        build = self.tmp / "capture-build" / "tools" / "cudalab"
        build.mkdir(parents=True)
        self.tool = build.parent.parent
        for path, text in ((build / "cudalab", TOOL), (self.tmp / "nvidia-smi", SMI)):
            path.write_text(text)
            path.chmod(path.stat().st_mode | stat.S_IXUSR)
        self.environment = {"NVIDIA_SMI": str(self.tmp / "nvidia-smi"), "FAKE_SMI_CALLS": str(self.tmp / "smi.txt"),
                            "OUT": str(self.out)}

    def capture(self, *args, **environment):
        return run_script("capture-readme-runs", [str(self.tool)] + list(args), **self.environment, **environment)

    def provenance(self, folder):
        with open(self.out / folder / "runs" / "provenance.csv", newline="") as f:
            return {r["file"]: r for r in csv.DictReader(f)}

    def test_every_run_is_written_where_its_table_reads_it_with_its_provenance(self):
        code, out, err = self.capture()
        self.assertEqual((code, err), (0, ""), out)
        runs = table_specs.captures()
        self.assertIn(f"{len(runs)} outputs captured in", out.splitlines()[-1])
        self.assertTrue(all(len(line) <= 120 for line in out.splitlines()), out)
        for run in runs:
            text = (self.out / run.path).read_text()
            self.assertEqual(text, f"device: NVIDIA H100 80GB HBM3 (sm_90)\noutput of {run.args}   \n"
                                   f"cudalab: note: {ROOT}\n", "stdout, then stderr; run in the repository root")
            row = self.provenance(run.folder)[Path(run.path).name]
            self.assertEqual((row["card"], row["driver"]), ("NVIDIA H100 80GB HBM3", "580.159.04"))
            self.assertRegex(row["date"], r"^\d{4}-\d\d-\d\d$")
            self.assertEqual(row["command"], f"{self.tool}/tools/cudalab/cudalab {run.args}")
        self.assertEqual((self.tmp / "smi.txt").read_text(),
                         "-i 0 --query-gpu=name,driver_version --format=csv,noheader\n")

    def test_the_gpu_named_is_the_first_one_cuda_sees(self):
        self.assertEqual(self.capture(CUDA_VISIBLE_DEVICES="3,1")[0], 0)
        self.assertTrue((self.tmp / "smi.txt").read_text().startswith("-i 3 "))

    def test_a_failing_command_is_named_after_the_others_ran_and_writes_nothing(self):
        code, out, _ = self.capture(FAKE_FAIL="run 07")
        self.assertEqual(code, 1, out)
        runs = table_specs.captures()
        self.assertIn(f"1 of {len(runs)} commands failed", out)
        self.assertIn(f"\n  {self.tool}/tools/cudalab/cudalab run 07\n    exit 4, not 0, the end of its standard "
                      "error:\n", out)
        self.assertIn("\n      cudalab: MODEL MISMATCH in 07-debugging/oob_write\n", out)
        self.assertFalse((self.out / "labs/07-debugging/figures/runs/default.txt").exists())
        self.assertTrue((self.out / "labs/08-register-tiling/figures/runs/default.txt").exists(), "the rest ran")
        self.assertTrue(all(len(line) <= 120 for line in out.splitlines()), out)

    def test_a_check_that_passes_where_it_must_fail_is_a_failure(self):
        code, out, _ = self.capture(FAKE_FAIL="check 03", FAKE_EXIT="0")
        self.assertEqual(code, 1)
        self.assertIn("check 03\n    exit 0, not 1", out)

    def test_rows_of_files_not_captured_now_are_kept(self):
        repository, folder = self.tmp / "repo", "labs/07-debugging/figures"
        (repository / folder / "runs").mkdir(parents=True)
        old = "old.txt,NVIDIA H200,580.159.03,2026-11-20,cudalab run 07 --size 1\n"
        (repository / folder / "runs" / "provenance.csv").write_text(
            f"file,card,driver,date,command\n{old}default.txt,NVIDIA H200,580.159.03,2026-11-20,cudalab run 07\n")
        (self.out / folder / "runs").mkdir(parents=True)
        row = {"file": "default.txt", "card": "NVIDIA H100 80GB HBM3", "driver": "580.159.04",
               "date": "2026-11-27", "command": "build/release/tools/cudalab/cudalab run 07"}
        capture_runs.write_provenance(self.out, repository, folder, [row])
        self.assertEqual((self.out / folder / "runs" / "provenance.csv").read_text(),
                         f"file,card,driver,date,command\n{old}default.txt,NVIDIA H100 80GB HBM3,580.159.04,"
                         "2026-11-27,build/release/tools/cudalab/cudalab run 07\n")

    def test_list_needs_no_gpu_and_names_each_file_and_command(self):
        code, out, _ = run_script("capture-readme-runs", ["--list"])
        self.assertEqual(code, 0)
        for run in table_specs.captures():
            self.assertIn(run.path, out)
        self.assertIn("  build/release/tools/cudalab/cudalab run 04-coalescing\n", out)
        self.assertIn("labs/03-shared-memory-tiling/figures/runs/check.txt (expected to exit 1)\n", out)
        self.assertTrue(all(len(line) <= 120 for line in out.splitlines()), out)

    def test_only_captures_the_outputs_named_and_keeps_the_other_rows(self):
        code, out, _ = run_script("capture-readme-runs", ["--list", "--only", "check"])
        self.assertEqual(code, 0)
        listed = [line for line in out.splitlines() if line.endswith(".txt") or ".txt (" in line]
        self.assertTrue(listed)
        self.assertTrue(all("check" in line for line in listed), out)
        code, out, err = self.capture("--only", "03-shared-memory-tiling/figures/runs/check")
        self.assertEqual(code, 0, err)
        self.assertTrue((self.out / "labs/03-shared-memory-tiling/figures/runs/check.txt").is_file())
        self.assertFalse((self.out / "labs/03-shared-memory-tiling/figures/runs/default.txt").exists())
        self.assertIn("default.txt", self.provenance("labs/03-shared-memory-tiling/figures"))

    def test_refusals(self):
        self.assertIn("no capture's file path holds 'nothing-like-it'",
                      self.assert_refused("capture-readme-runs", ["--list", "--only", "nothing-like-it"]))
        self.assertIn("--only: name at least one", self.assert_refused("capture-readme-runs", ["--list", "--only", ","]))
        self.assertIn("no output folder: set $OUT or pass --out DIR",
                      self.assert_refused("capture-readme-runs", [], OUT=""))
        self.assertIn("too many arguments", self.assert_refused("capture-readme-runs", ["a", "b"]))
        err = self.assert_refused("capture-readme-runs", [str(self.tmp / "nowhere"), "--out", str(self.out)], status=1)
        self.assertIn("not found: build first", err)
        # An output folder that cannot be made is refused before any command runs.
        (self.tmp / "a-file").write_text("")
        err = self.assert_refused("capture-readme-runs", [str(self.tool), "--out", str(self.tmp / "a-file" / "x")])
        self.assertIn("cannot make the folder", err)
        self.assertFalse((self.tmp / "smi.txt").exists())

    def test_a_capture_renders_into_its_doc(self):
        self.assertEqual(self.capture()[0], 0)
        run = table_specs.RUNS["lab04-run"]
        doc = self.out / "README.md"
        doc.write_text(f"<!-- table lab04-run: rendered from {run.path} by scripts/render-tables.sh; do not edit -->\n"
                       "<!-- end of table lab04-run -->\n")
        self.assertEqual(run_script("render-tables", ["--root", str(self.out)])[0], 0)
        self.assertIn(f"`{self.tool}/tools/cudalab/cudalab run 04-coalescing` (NVIDIA H100 80GB HBM3, driver",
                      doc.read_text().replace("\n", " "))
        self.assertEqual(run_script("render-tables", ["--check", "--root", str(self.out)])[0], 0)


if __name__ == "__main__":
    unittest.main()
