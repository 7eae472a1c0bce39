"""cp_async_tuned's table of configurations (tuned_pipeline_configs in
kernels/matmul/register_tiling_kernels.cuh) is the committed sweep's verdict: at every side of
labs/08-register-tiling/figures/pipeline-configs-<card>.csv (one file a card), the configuration
with the most TFLOP/s is the one the table lists. A table changed without a new sweep, or a
sweep committed without the table, fails here."""
import csv
import re
import unittest

from support import SCRIPTS

REPO = SCRIPTS.parent
HEADER = REPO / "kernels" / "matmul" / "register_tiling_kernels.cuh"
FIGURES = REPO / "labs" / "08-register-tiling" / "figures"


def sweeps():
    """{card: the rows of cp_async_pipeline in its sweep file}."""
    found = {}
    for path in sorted(FIGURES.glob("pipeline-configs-*.csv")):
        with open(path, newline="") as f:
            found[path.stem.removeprefix("pipeline-configs-")] = [
                r for r in csv.DictReader(f) if r["variant"] == "cp_async_pipeline"]
    return found


def table_in_header():
    """{side: configuration} of tuned_pipeline_configs."""
    text = HEADER.read_text()
    body = re.search(r"tuned_pipeline_configs\[\] = \{(.*?)\};", text, re.S)
    if body is None:
        raise AssertionError(f"{HEADER.name}: no tuned_pipeline_configs table")
    return {int(side): int(config) for side, config in re.findall(r"\{\s*(\d+)\s*,\s*(\d+)\s*\}", body.group(1))}


def fastest(rows):
    """{side: the configuration with the most TFLOP/s there}."""
    best = {}
    for r in rows:
        side, tflops = int(r["size"]), float(r["tflops"])
        if tflops > best.get(side, (-1.0, None))[0]:
            best[side] = (tflops, int(r["param"]))
    return {side: config for side, (_, config) in best.items()}


class tuned_configs(unittest.TestCase):
    def test_the_table_lists_the_sweeps_fastest_configuration_at_every_side(self):
        table = table_in_header()
        found = sweeps()
        self.assertTrue(found, f"no pipeline-configs-<card>.csv in {FIGURES}")
        for card, rows in found.items():
            with self.subTest(card=card):
                self.assertEqual(table, fastest(rows))

    def test_every_configuration_ran_at_every_side(self):
        for card, rows in sweeps().items():
            points = {(int(r["size"]), int(r["param"])) for r in rows if r["tflops"]}
            sides = {side for side, _ in points}
            self.assertEqual(points, {(side, config) for side in sides for config in range(6)}, card)


if __name__ == "__main__":
    unittest.main()
