"""scripts/check-prose-figures.sh on a small repository of its own: a figure found in its lab's
data passes, one derived from the data by a matching row passes, one listed as still to trace
passes and is counted, and each way of going wrong fails with one line: a figure from nowhere,
a derived row whose arithmetic no longer gives the figure or names a number the data lacks, and
a listed figure the doc no longer quotes. Figures are seen in the forms the prose writes them:
1.38-fold, 41 times, and numbers that share the unit after them (18 to 22 us)."""
import tempfile
import unittest
from pathlib import Path

from support import run_script

DOC = "labs/09-demo/README.md"
PROSE = """# Demo

The tiled kernel takes 12.5 us where the naive one takes 40.0 us: 3.2x faster.
It sustains 98.6% of the roof (code blocks and rendered tables are data already):

```
naive 40.0 us   tiled 12.5 us   7.77x
```

An L2 of 50 MB holds it (a capacity, not a measurement).
"""
DATA = "variant,time_us\nnaive,40.0\ntiled,12.5\n"
DERIVED = "doc,figure,expression,where\n" + DOC + ",3.2x,40.0 / 12.5,times.csv: naive over tiled\n"


class prose_figures(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        (self.root / "labs/09-demo/figures").mkdir(parents=True)
        (self.root / "docs/data").mkdir(parents=True)
        self.write(DOC, PROSE)
        self.write("labs/09-demo/figures/times.csv", DATA)
        self.write("labs/09-demo/figures/derived.csv", DERIVED)
        self.write("docs/data/unsourced-figures.csv", "doc,figure\n" + DOC + ",98.6%\n")

    def tearDown(self):
        self.folder.cleanup()

    def write(self, path, text):
        (self.root / path).write_text(text)

    def check(self):
        return run_script("check-prose-figures", ["--root", str(self.root), str(self.root / DOC)])

    def test_data_derived_and_listed_figures_pass_and_the_listed_are_counted(self):
        status, out, err = self.check()
        self.assertEqual((status, err), (0, ""))
        self.assertIn("4 figures in 1 docs: 3 from data, 1 still to trace", out)

    def test_a_figure_from_nowhere_fails_with_its_line(self):
        self.write(DOC, PROSE + "\nThe padded kernel takes 11.9 us.\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertTrue(all(len(line) <= 120 for line in out.split("\n")), out)
        self.assertIn(f"{DOC}:12: 11.9 us is in no data file", out)

    def test_micro_seconds_and_times_signs_are_units_too(self):
        self.write(DOC, PROSE + "\nA launch costs 6.1 µs; the tile is 2.5× faster.\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertIn(f"{DOC}:12: 6.1 µs is in no data file", out)
        self.assertIn(f"{DOC}:12: 2.5× is in no data file", out)

    def test_a_percentage_with_a_space_before_its_sign_is_a_figure_too(self):
        self.write(DOC, PROSE + "\nThe copy reaches 91.7 % of the roof.\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertIn(f"{DOC}:12: 91.7 % is in no data file", out)

    def test_fold_and_times_are_units_too(self):
        self.write(DOC, PROSE + "\nThe tile cuts the sectors 20-fold and the time 1.38-fold; "
                   "T = 2 is 41 times slower, and 0.94x the naive kernel's rate.\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        for figure in ("20-fold", "1.38-fold", "41 times", "0.94x"):
            self.assertIn(f"{DOC}:12: {figure} is in no data file", out)

    def test_numbers_that_share_the_unit_after_them_are_figures_of_that_unit(self):
        # 18 to 22 us is two figures in us; a list takes the unit of its last figure.
        self.write(DOC, PROSE + "\nThe kernels take 18 to 22 us; 11.1, 12.2 and 13.3 ms; 30 and "
                   "4.9 times the tile's (81.59 and 13.30 ms).\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        for figure in ("18 us", "22 us", "11.1 ms", "12.2 ms", "13.3 ms", "30 times", "4.9 times",
                       "81.59 ms", "13.30 ms"):
            self.assertIn(f"{DOC}:12: {figure} is in no data file", out)

    def test_a_parameter_a_fraction_or_a_power_does_not_take_the_unit(self):
        # n = 2048 and at 4096 are parameters, at 0.16 is a figure; 5T/8 and 2^23 are not figures.
        self.write(DOC, PROSE + "\nIt falls from n = 2048 to 4.58 TFLOP/s, 1.39x at 4096 and "
                   "1.41x, 5T/8 times fewer, 2^23 and 733x; T = 2 at 0.16 and 1.06 TFLOP/s.\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertEqual(out.count("is in no data file"), 6, out)
        for figure in ("4.58 TFLOP/s", "1.39x", "1.41x", "733x", "0.16 TFLOP/s", "1.06 TFLOP/s"):
            self.assertIn(f"{DOC}:12: {figure} is in no data file", out)

    def test_a_joined_figure_is_traced_by_a_derived_row_as_written(self):
        self.write(DOC, PROSE + "\nThe tiles take 81.59 and 12.5 us, 6.5-fold and 1.00x the naive "
                   "kernel's.\n")
        self.write("labs/09-demo/figures/times.csv", DATA + "t2,81.589\n")
        self.write("labs/09-demo/figures/derived.csv", DERIVED
                   + DOC + ",81.59 us,81.589,times.csv: t2\n"
                   + DOC + ",6.5-fold,81.589 / 12.5,times.csv: t2 over tiled\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertEqual(out.count("is in no data file"), 1, out)
        self.assertIn(f"{DOC}:12: 1.00x is in no data file", out)

    def test_a_derived_row_whose_arithmetic_is_off_fails(self):
        self.write("labs/09-demo/figures/derived.csv", DERIVED.replace("40.0 / 12.5", "40.0 / 10.0"))
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertIn("3.2x of labs/09-demo/README.md is 40.0 / 10.0 = 4, not 3.2", out)

    def test_a_derived_row_on_a_number_the_data_lacks_fails(self):
        self.write("labs/09-demo/figures/derived.csv", DERIVED.replace("40.0 / 12.5", "40.0 / 12.49"))
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertIn("3.2x uses 12.49, in no data file", out)

    def test_a_listed_figure_no_longer_quoted_fails_so_the_list_shrinks(self):
        self.write(DOC, PROSE.replace("98.6%", "99.0%"))
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertIn("98.6% is no longer quoted", out)

    def test_a_figure_matches_its_precision_not_a_longer_number(self):
        # 12 is not 12.5, 40.00 is 40.0, 3.2 is not the mantissa of 3.2e+01, and code is left out.
        self.write("labs/09-demo/figures/times.csv", DATA + "x,3.2e+01\ny,40.00\n")
        self.write(DOC, PROSE + "\nAbout 12 us each; `12 us` in code is not prose.\n")
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertEqual(out.count("is in no data file"), 1, out)
        self.assertIn(f"{DOC}:12: 12 us is in no data file", out)

    def test_a_derived_expression_is_decimal_arithmetic_only(self):
        self.write("labs/09-demo/figures/derived.csv", DERIVED.replace("40.0 / 12.5", "0x28 / 12.5"))
        status, _, err = self.check()
        self.assertEqual(status, 2)
        self.assertIn("not arithmetic on decimal numbers", err)

    def test_a_block_that_quotes_a_data_file_holds_only_its_lines(self):
        self.write("labs/09-demo/figures/run.log", "median of 3:\nrun: 1.09 s\n")
        quote = "\nThe run, `figures/run.log`:\n\n```\nmedian of 3:\nrun: 1.09 s\n```\n"
        self.write(DOC, PROSE + quote)
        status, out, err = self.check()
        self.assertEqual((status, err), (0, ""), out)
        self.write(DOC, PROSE + quote.replace("1.09 s", "1.08 s"))
        status, out, _ = self.check()
        self.assertEqual(status, 1)
        self.assertIn(f"{DOC}:16: not a line of labs/09-demo/figures/run.log: run: 1.08 s", out)
        # A block after a line that names no data file is not a quote (a command, say).
        self.write(DOC, PROSE + quote.replace("`figures/run.log`", "this command"))
        self.assertEqual(self.check()[0], 0)

    def test_a_malformed_derived_file_is_one_line_and_exit_2(self):
        self.write("labs/09-demo/figures/derived.csv", "figure,value\n3.2x,3.2\n")
        status, _, err = self.check()
        self.assertEqual(status, 2)
        self.assertEqual(len(err.strip().split("\n")), 1)
        self.assertIn("the columns are doc,figure,expression,where", err)


if __name__ == "__main__":
    unittest.main()
