"""scripts/labs.py and cudalab_scripts.labs: the labs read as data, a new lab with no script edit."""
import json
import subprocess
import unittest

from support import DATA, SCRIPTS, ScriptTest
from cudalab_scripts import cli, labs

LABS = {lab["id"]: lab for lab in json.loads((DATA / "labs.json").read_text())["labs"]}


class plan_from_the_json(unittest.TestCase):
    def test_a_range_sweep_runs_at_its_two_ends_and_a_list_at_its_default_points(self):
        entries = {e.variant: e for e in labs.plan(LABS["04-coalescing"]) + labs.plan(LABS["09-new-lab"])}
        self.assertEqual(entries["offset"].sweep, "0,32")
        self.assertIsNone(entries["tiled"].sweep)
        self.assertIsNone(entries["aos_float3"].sweep)

    def test_every_variant_but_the_exercise_at_the_labs_sanitizer_size(self):
        entries = labs.plan(LABS["04-coalescing"])
        self.assertEqual([e.variant for e in entries], ["aos_float3", "soa", "offset", "no_guard"])
        self.assertEqual({e.size for e in entries}, {1000003})
        self.assertEqual([e.size for e in labs.plan(LABS["09-new-lab"])], [77, 77])

    def test_named_variants_keep_their_order_and_may_name_the_exercise(self):
        entries = labs.plan(LABS["04-coalescing"], ["exercise", "soa"])
        self.assertEqual([(e.variant, e.role) for e in entries], [("exercise", "exercise"), ("soa", "fixed")])

    def test_an_unknown_variant_is_a_bad_argument(self):
        with self.assertRaises(cli.Refusal) as refused:
            labs.plan(LABS["04-coalescing"], ["soa", "nope"])
        self.assertEqual(refused.exception.status, 2)
        self.assertIn("unknown variant 'nope' of 04-coalescing", str(refused.exception))

    def test_a_size_the_lab_refuses_falls_back_to_its_default(self):
        self.assertEqual(labs.size_for(LABS["04-coalescing"], 1 << 20), 1 << 20)
        self.assertEqual(labs.size_for(LABS["09-new-lab"], 1 << 20), 1001)
        self.assertEqual(labs.size_for(LABS["09-new-lab"], 4096), 4096)


class labs_py_command(ScriptTest):
    def labs_py(self, *args):
        return subprocess.run([str(SCRIPTS / "labs.py"), self.build + "/tools/cudalab/cudalab"] + list(args),
                              capture_output=True, text=True, check=False)

    def test_a_new_lab_is_listed_without_a_script_edit(self):
        self.assertEqual(self.labs_py("ids").stdout.split(), ["04-coalescing", "09-new-lab"])
        self.assertEqual(self.labs_py("id", "9").stdout.strip(), "09-new-lab")

    def test_the_plan_lines_sanitize_reads(self):
        self.assertEqual(self.labs_py("plan", "04", "offset,soa").stdout,
                         "04-coalescing offset naive 0,32 1000003\n04-coalescing soa fixed - 1000003\n")

    def test_has_variant_answers_by_its_exit_status(self):
        self.assertEqual(self.labs_py("has-variant", "04", "exercise").returncode, 0)
        self.assertEqual(self.labs_py("has-variant", "04", "nope").returncode, 1)

    def test_an_unknown_lab_or_bad_arguments_are_one_line_and_exit_2(self):
        for args in (["id", "99"], ["plan", "04", "nope"], ["size", "04", "many"], ["frobnicate"]):
            done = self.labs_py(*args)
            self.assertEqual(done.returncode, 2, args)
            self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)


if __name__ == "__main__":
    unittest.main()
