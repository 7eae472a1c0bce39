"""scripts/bench.sh: its arguments, the medians and ratios it reads from `cudalab run --format csv`,
and section 4 (the model's predictions) run against a stand-in tool."""
import statistics
import unittest

from support import DATA, ScriptTest, run_script
from cudalab_scripts import bench, cli


class arguments(unittest.TestCase):
    def test_sections_and_model_only(self):
        self.assertEqual(bench.parse([]).sections, {1, 2, 3, 4, 5, 6, 7})
        self.assertEqual(bench.parse(["--sections", "3,6"]).sections, {3, 6})
        self.assertEqual(bench.parse(["--model-only"]).sections, {4})

    def test_build_and_out_are_relative_to_the_repository(self):
        args = bench.parse(["--build", "build/ci", "--out", "/tmp/b"])
        self.assertEqual((str(args.build), str(args.out)), (str(cli.ROOT / "build/ci"), "/tmp/b"))

    def test_each_bad_argument_is_refused(self):
        for argv in (["--sections", "8"], ["--sections", "1,,2"], ["--sections"], ["--frobnicate"], ["3"]):
            with self.assertRaises(cli.Refusal) as refused:
                bench.parse(argv)
            self.assertEqual(refused.exception.status, 2, argv)


class reading_the_csv(unittest.TestCase):
    def rows(self, name):
        return bench.rows_of((DATA / name).read_text())

    def test_the_particle_speedup_is_the_ratio_of_the_medians(self):
        self.assertEqual(bench.particles_line(self.rows("bench_particles.csv")),
                         "particles_aos 2.4000 ms (223.7 GB/s), particles_soa 0.6936 ms (774.1 GB/s): SoA 3.46x faster")

    def test_transposes_against_the_copy_measured_beside_them_sweeps_left_out(self):
        lines = bench.transpose_lines(self.rows("bench_transpose.csv"))
        self.assertEqual(lines, sorted(lines))
        self.assertIn("padded is 1.67x faster than shared_tile; tile_rows reaches 110.9% of copy", lines)
        self.assertIn("tile_rows            0.1939 ms  2768.8 GB/s  110.9% of copy", lines)
        self.assertFalse(any(line.startswith(("copy ", "exercise ", "shared_stride ")) for line in lines))

    def test_a_run_with_the_restrict_copy_gives_both_shares(self):
        rows = self.rows("bench_transpose.csv")
        restrict = dict(next(r for r in rows if r["variant"] == "copy"), variant="copy_restrict")
        restrict["time_ms_median"], restrict["gbps"] = "0.1930", "2782.3"
        lines = bench.transpose_lines(rows + [restrict])
        summary = next(line for line in lines if line.startswith("padded is"))
        self.assertTrue(summary.endswith(f"and {100 * 2768.8 / 2782.3:.1f}% of copy_restrict"), summary)
        self.assertIn(f"{100 * 2782.3 / 2495.9:6.1f}% of copy", next(l for l in lines if l.startswith("copy_restrict")))
        tile_rows = next(line for line in lines if line.startswith("tile_rows"))
        self.assertTrue(tile_rows.endswith("% of copy_restrict"), tile_rows)

    def test_a_run_with_both_roofs_reads_each_transpose_against_the_better(self):
        rows = [dict(r, copy_memcpy_gbps="2900.0", copy_kernel_gbps="2950.0")
                for r in self.rows("bench_transpose.csv")]
        lines = bench.transpose_lines(rows)
        summary = next(l for l in lines if l.startswith("padded is"))
        self.assertIn("roof 2950.0 GB/s, the better of cudaMemcpy 2900.0 and copy kernel 2950.0", summary)
        self.assertTrue(summary.endswith(f"reaches {100 * 2768.8 / 2950.0:.1f}% of it"), summary)
        self.assertIn(f"{100 * 2768.8 / 2950.0:6.1f}% of the roof", next(l for l in lines if l.startswith("tile_rows")))

    def test_lab_08_shares_of_cublas_measured_in_the_same_run(self):
        # The committed size sweep of lab 08 (labs/08-register-tiling/figures/sizes.csv).
        rows = bench.rows_of((cli.ROOT / "labs/08-register-tiling/figures/sizes.csv").read_text())
        lines = bench.cublas_share_lines(rows)
        self.assertEqual(lines[0].split(), ["%", "of", "cublas", "256", "512", "1024", "2048", "4096", "8192"])
        tflops = {(r["variant"], r["size"]): float(r["tflops"]) for r in rows}
        warp_tiled = next(line for line in lines if line.startswith("warp_tiled"))
        share = 100 * tflops[("warp_tiled", "4096")] / tflops[("cublas", "4096")]
        self.assertEqual(warp_tiled.split()[-2], f"{share:.1f}%")
        self.assertTrue(lines[-1].startswith("cublas TFLOP/s"))
        self.assertTrue(all(len(line) <= bench.WIDTH for line in lines))
        without = [r for r in rows if not (r["variant"] == "cublas" and r["size"] == "512")]
        with self.assertRaises(cli.Refusal):
            bench.cublas_share_lines(without)

    def test_a_csv_without_the_reference_stops_the_bench(self):
        rows = [r for r in self.rows("bench_transpose.csv") if r["variant"] != "copy"]
        with self.assertRaises(cli.Refusal):
            bench.transpose_lines(rows)
        with self.assertRaises(cli.Refusal):
            bench.particles_line(self.rows("bench_particles.csv")[:1])

    def test_a_predictions_row_is_the_median_of_five_and_fits_120_columns(self):
        seconds = [0.031, 0.012, 0.019, 0.018, 0.025]
        line = bench.prediction_line(bench.PREDICTIONS[0], seconds)
        self.assertIn(f" {statistics.median(seconds):.3f} s (runs 0.012 0.018 0.019 0.025 0.031)", line)
        self.assertEqual(bench.prediction_line(bench.PREDICTIONS[-1], seconds).splitlines()[1],
                         "    (runs 0.012 0.018 0.019 0.025 0.031)")
        for command in bench.PREDICTIONS:
            for row in bench.prediction_line(command, [10.5] * 5).splitlines():
                self.assertLessEqual(len(row), 120, command)

    def test_lines_after_a_match_as_grep_a_prints_them(self):
        text = "\n".join(["a", "x by Range Profiler step 1", "b", "c", "d", "e", "f by Range Profiler step 2", "g"])
        self.assertEqual(bench.lines_after(text, "by Range Profiler step", 2),
                         ["x by Range Profiler step 1", "b", "c", "--", "f by Range Profiler step 2", "g"])
        self.assertEqual(bench.lines_after(text, "by Range Profiler step", 4),
                         ["x by Range Profiler step 1", "b", "c", "d", "e", "f by Range Profiler step 2", "g"])


class model_only(ScriptTest):
    def test_section_4_runs_each_prediction_six_times_without_a_gpu(self):
        code, out, err = run_script("bench", ["--model-only", "--build", self.build, "--out", str(self.tmp / "b")],
                                    FAKE_CALLS=str(self.calls))
        self.assertEqual(code, 0, err)
        self.assertEqual(len([row for row in out.splitlines() if row.startswith("  run ")]), len(bench.PREDICTIONS))
        self.assertEqual(len(self.calls.read_text().splitlines()), 6 * len(bench.PREDICTIONS))
        self.assertTrue((self.tmp / "b" / "bench-runs.log").exists())

    def test_a_run_that_does_not_predict_stops_the_bench(self):
        code, _, err = run_script("bench", ["--model-only", "--build", self.build, "--out", str(self.tmp / "b")],
                                  CUDA_VISIBLE_DEVICES="0")
        # CUDA_VISIBLE_DEVICES is replaced by the empty value for every run: still exit 3.
        self.assertEqual(code, 0, err)
        code, _, err = run_script("bench", ["--model-only", "--build", str(self.tmp / "none")])
        self.assertEqual(code, 1)
        self.assertIn("not found", err)


if __name__ == "__main__":
    unittest.main()
