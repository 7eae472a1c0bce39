"""cp_async_pipeline's A layout by configuration and cp_async_tuned's table of configurations
are the committed sweeps' verdicts.

The layouts (pipeline_conflict_free_a in kernels/matmul/register_tiling_kernels.cuh): a
configuration takes the conflict-free A layout where, in
labs/08-register-tiling/figures/pipeline-a-layouts-h200.csv (both layouts swept, each in its own
run), its share of cuBLAS is higher in that layout at every side from 1024 on (below 1024 the
shares vary from run to run more than the layouts differ).

cp_async_tuned's table (tuned_pipeline_configs in
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


def configs_in_header():
    """warp_tiled_configs: how many configurations the kernels are built in."""
    found = re.search(r"warp_tiled_configs = (\d+);", HEADER.read_text())
    if found is None:
        raise AssertionError(f"{HEADER.name}: no warp_tiled_configs")
    return int(found.group(1))


LAYOUTS = FIGURES / "pipeline-a-layouts-h200.csv"


def layouts_in_header():
    """The configurations pipeline_conflict_free_a marks true."""
    body = re.search(r"pipeline_conflict_free_a\[warp_tiled_configs\] = \{(.*?)\};", HEADER.read_text(), re.S)
    if body is None:
        raise AssertionError(f"{HEADER.name}: no pipeline_conflict_free_a list")
    flags = [f.strip() for f in body.group(1).split(",") if f.strip()]
    return {config for config, flag in enumerate(flags) if flag == "true"}


def conflict_free_wins():
    """The configurations whose share of cuBLAS is higher in the conflict-free layout at every side
    from 1024 on, in the layouts' sweep."""
    share = {}
    with open(LAYOUTS, newline="") as f:
        rows = list(csv.DictReader(f))
    # The file holds several runs one after the other, each its pipeline rows then its cuBLAS rows:
    # a share is taken against the cuBLAS of its own run.
    run, previous, runs = 0, None, []
    for r in rows:
        if r["variant"] == "cp_async_pipeline" and previous == "cublas":
            run += 1
        runs.append(run)
        previous = r["variant"]
    cublas = {(run, int(r["size"])): float(r["tflops"]) for run, r in zip(runs, rows) if r["variant"] == "cublas"}
    for run, r in zip(runs, rows):
        if r["variant"] == "cp_async_pipeline":
            key = (r["layout"], int(r["param"]), int(r["size"]))
            share[key] = float(r["tflops"]) / cublas[(run, int(r["size"]))]
    configs = {config for _, config, _ in share}
    sides = sorted({side for _, _, side in share if side >= 1024})
    return {c for c in configs
            if all(share[("conflict_free", c, s)] > share[("warp_tiled", c, s)] for s in sides)}


def shapes_in_header():
    """{configuration: "BM x BN, BK k, w warps of WM x WN"} of warp_tiled_tilings."""
    body = re.search(r"warp_tiled_tilings\[warp_tiled_configs\] = \{(.*?)\n\};", HEADER.read_text(), re.S)
    if body is None:
        raise AssertionError(f"{HEADER.name}: no warp_tiled_tilings")
    shapes = {}
    for config, fields in enumerate(re.findall(r"\{([^{}]*)\}", body.group(1))):
        bm, bn, bk, _, _, threads, _, _, wm, wn, _ = [f.strip() for f in fields.split(",")]
        shapes[str(config)] = f"{bm} x {bn}, BK {bk}, {int(threads) // 32} warps of {wm} x {wn}"
    return shapes


class tuned_configs(unittest.TestCase):
    def test_the_sweep_table_names_each_configuration_by_its_tiling(self):
        from cudalab_scripts.table_specs import CONFIG_SHAPES
        self.assertEqual(CONFIG_SHAPES, shapes_in_header())
        self.assertEqual(len(CONFIG_SHAPES), configs_in_header())

    def test_the_conflict_free_layout_is_taken_where_the_sweep_found_it_faster(self):
        self.assertEqual(layouts_in_header(), conflict_free_wins())

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
            self.assertEqual(points, {(side, config) for side in sides for config in range(configs_in_header())},
                             card)


if __name__ == "__main__":
    unittest.main()
