"""scripts/render-tables.sh: a spec renders known data to known text, bench.sh's log read back,
and the whole renderer on a small repository of its own: render, --check with its diff, and one
line and exit 2 for each broken table."""
import shutil
import tempfile
import unittest
import unittest.mock
from pathlib import Path

from support import DATA, ScriptTest, run_script
from cudalab_scripts import bench_log, table_specs, tables

FIXTURES = DATA / "tables"
BEGIN = "<!-- table lab02-timers: rendered from data/timers.csv by scripts/render-tables.sh; do not edit -->"
END = "<!-- end of table lab02-timers -->"
TIMERS = """| floats | `host_timer_no_sync` | its "GB/s" | `event_timed` | GB/s |
| --- | --- | --- | --- | --- |
| 1M | 4.64 us | 1,806 | 7.89 us | 1,063 |
| 16M | 5.24 us | 25,626 | 65.9 us | 2,036 |"""


class specs(unittest.TestCase):
    def test_a_spec_renders_a_known_csv_to_known_text(self):
        source = tables.Source(DATA, "tables/timers.csv")
        self.assertEqual(table_specs.lab02_timers(source), TIMERS)

    def test_numbers_are_written_as_the_docs_write_them(self):
        self.assertEqual([table_specs.significant(v) for v in (77.006, 4.644, 962.048, 1055.969)],
                         ["77.0", "4.64", "962", "1,056"])
        self.assertEqual([table_specs.significant(v, 2) for v in (14.32, 9.754, 1.097)], ["14", "9.8", "1.1"])
        self.assertEqual(table_specs.percent(2966.8, 3014.6), "98.4 %")
        self.assertEqual(table_specs.size_in_floats(2 ** 28, {2 ** 28: "1 GiB"}), "256M (1 GiB)")

    def test_every_spec_in_the_docs_exists_and_every_spec_is_used(self):
        used = set()
        for doc in tables.default_docs(tables.cli.ROOT):
            used |= {t.name for t in tables.tables_in(str(doc), doc.read_text().split("\n"))}
        self.assertEqual(used, set(table_specs.SPECS))


class reading_bench_logs(unittest.TestCase):
    def test_runs_ratios_and_costs_as_printed(self):
        log = tables.Source(DATA, "tables/bench.log").log
        self.assertEqual(log.device, "NVIDIA H200")
        self.assertEqual(log.runs[2 ** 26]["soa"]["GB/s"], "4029.8")
        self.assertEqual(log.runs[2 ** 26]["memcpy_d2d"]["model"], "no model")
        self.assertEqual((log.particle_speedup, log.padded_speedup, log.tile_rows_pct_of_copy),
                         ("2.66", "1.73", "117.2"))
        self.assertEqual(log.witness_cost, {("04", "data stage"): "3.18", ("06", "SASS level"): "1.11"})

    def test_section_4s_prediction_runs_in_their_order_a_wrapped_one_too(self):
        log = bench_log.parse(
            "== 4. the model's predictions without a GPU (wall time, median of 5; 2 cores)\n"
            "  run 01                                     0.089 s (runs 0.086 0.086 0.089 0.090 0.092)\n"
            "  run 01 --variant a,b --size 2^10..2^36 0.144 s\n"
            "    (runs 0.141 0.143 0.144 0.147 0.152)\n"
            "== 6. the SASS-level shared witness's cost\n"
            "  run 04 is no prediction here 1.0 s\n")
        self.assertEqual(log.predictions, [("01", "0.089"), ("01 --variant a,b --size 2^10..2^36", "0.144")])
        self.assertEqual(log.runs, {})

    def test_the_prediction_table_renders_the_log_and_refuses_an_empty_one(self):
        source = unittest.mock.Mock(log=bench_log.parse(
            "== 4. x\n  run 04 --size 1G                           0.088 s (runs 0.1)\n"), name="x.log")
        self.assertEqual(table_specs.bench_model_only(source).split("\n")[2], "| `cudalab run 04 --size 1G` | 0.088 s |")
        source.log = bench_log.parse("== 3. large sizes\n")
        with self.assertRaises(tables.cli.Refusal):
            table_specs.bench_model_only(source)

    def test_lab_02s_dram_table_reads_the_csv_among_the_notes_and_needs_its_dram_bytes(self):
        header = "variant,time_ms_median,local_ld_sectors_measured,local_st_sectors_measured,"
        full = header + "dram_read_bytes,dram_write_bytes\n"
        text = (full + "local_spill,0.2976,10,20,67000000.0,218000000.0\nregisters,0.0838,0,0,67000000.0,67000000.0\n"
                "cudalab: note: a note\n  fix: a fix\n")
        provenance = {"card": "NVIDIA H100", "driver": "580", "date": "2026-11-27"}
        output = unittest.mock.Mock(text=text, provenance=provenance)
        lines = table_specs.lab02_local_dram(output).split("\n")
        self.assertEqual(lines[2], "| `local_spill` | 297.6 us | 30 | 0.00 GB | 67.0 MB | 218.0 MB |")
        output.text = header + "\nlocal_spill,0.2976,10,20\nregisters,0.0838,0,0\n"
        with self.assertRaises(tables.cli.Refusal):
            table_specs.lab02_local_dram(output)

    def test_lab_02s_streams_side_by_side_under_their_provenance(self):
        rows = [{"variant": "one_stream", "op": "H2D", "stream": "0", "start_us": "0.0", "end_us": "1223.2",
                 "bytes": str(64 << 20)},
                {"variant": "one_stream", "op": "K", "stream": "0", "start_us": "1344.3", "end_us": "1410.9",
                 "bytes": ""},
                {"variant": "overlap_streams", "op": "H2D", "stream": "0", "start_us": "0.0", "end_us": "310.7",
                 "bytes": str(16 << 20)},
                {"variant": "overlap_streams", "op": "H2D", "stream": "1", "start_us": "313.3", "end_us": "639.1",
                 "bytes": str(16 << 20)},
                {"variant": "overlap_streams", "op": "K", "stream": "0", "start_us": "314.3", "end_us": "332.4",
                 "bytes": ""}]
        streams = unittest.mock.Mock(rows=rows, provenance={"command": "scripts/nsys.sh x", "card": "NVIDIA H100",
                                                            "driver": "580", "date": "2026-11-28"})
        streams.name = "streams.csv"
        lines = table_specs.lab02_streams(streams).split("\n")
        self.assertEqual(" ".join(lines[:2]), "`scripts/nsys.sh x` (H100, driver 580, 2026-11-28): the last launch "
                                              "of each, times from its first operation.")
        at = lines.index("```")
        self.assertEqual(lines[at + 1], "one_stream" + " " * 40 + "overlap_streams")
        self.assertEqual(lines[at + 2], "H2D  stream 0       0.0 ..   1223.2 us  64 MiB    "
                                        "H2D  stream 0       0.0 ..    310.7 us  16 MiB")
        self.assertEqual(lines[at + 4], " " * 50 + "K    stream 0     314.3 ..    332.4 us")
        self.assertEqual(lines[-1], "```")
        streams.rows = rows[2:]
        with self.assertRaises(tables.cli.Refusal):
            table_specs.lab02_streams(streams)

    def test_lab_07s_barrier_probes_drop_synccheck_s_common_words(self):
        rows = [{"form": "a", "misuse": "whole warps", "without_tool": "to the end",
                 "synccheck": "Barrier error detected. Divergent thread(s) in block."},
                {"form": "b", "misuse": "odd lanes exit", "without_tool": "hangs", "synccheck": "nothing"}]
        probes = unittest.mock.Mock(rows=rows, provenance={"command": "scripts/barrier-probes.sh",
                                                           "card": "NVIDIA H200", "driver": "580", "date": "2026-11-28"})
        lines = table_specs.lab07_barrier_probes(probes).split("\n")
        self.assertEqual(lines[2], "| whole warps (`a`) | to the end | `Divergent thread(s) in block.` |")
        self.assertEqual(lines[3], "| odd lanes exit (`b`) | hangs | nothing |")
        self.assertEqual(lines[-1], "`scripts/barrier-probes.sh` (H200, driver 580, 2026-11-28).")

    def test_the_products_and_transposes_are_summed_up_from_the_labs_runs(self):
        def output(name, command, text):
            return unittest.mock.Mock(name=name, text=text, provenance={"command": f"build/x/cudalab {command}"})
        lab08 = output("08", "run 08 --size 4096", "device: X (sm_90)\n4,096 side\n"
                       "variant              role   time  TFLOP/s  %cublas\n"
                       "pad_to_64            naive  1 ms  17.50  34.3\ncoarse_1d            fixed  1 ms  15.40  30.2\n"
                       "register_2d          fixed  1 ms  29.33  57.6\nvectorized           fixed  1 ms  31.68  62.2\n"
                       "warp_tiled config=0  fixed  1 ms  36.09  70.9\ncublas               base   1 ms  50.94  100.0\n")
        lab03 = output("03", "run 03 --size 4096", "device: X (sm_90)\n4,096 side\nvariant        time  TFLOP/s\n"
                       "naive          1 ms  4.00\ntiled tile=2   1 ms  0.16\ntiled tile=4   1 ms  1.06\n"
                       "tiled tile=32  1 ms  6.00\n")
        lab06 = output("06", "run 06 --size 8192", "device: X (sm_90)\n8,192 side\nvariant         time      GB/s  %copy\n"
                       "copy            200.0 us  2000.0  80.0\ncopy_restrict   100.0 us  4000.0  95.0\n"
                       "tile_rows       100.0 us  3000.0  94.4\ntile64_rows     90.00 us  3100.0  96.0\n"
                       "shared_tile     500.0 us  100.0  1.0\n"
                       "padded          250.0 us  200.0  2.0\nnaive_row_read  1.000 ms  100.0  1.0\n"
                       "naive_col_read  400.0 us  100.0  1.0\n")
        lines = table_specs.bench_products_and_transposes(lab08, lab03, lab06).split("\n")
        self.assertTrue(lines[2].startswith("| `cudalab run 08 --size 4096` | `warp_tiled` 36.09 TFLOP/s, **70.9 %**"))
        self.assertIn("1.50x `naive` (4.00)", lines[3])
        self.assertIn("150 % of the `copy` kernel's bandwidth and 75.0 % of `copy_restrict`'s (94.4 %", lines[4])
        self.assertIn("`tile64_rows` 90.00 us (96.0 %); `padded` 2.00x `shared_tile`", lines[4])
        self.assertIn("`naive_col_read` 2.5x `naive_row_read`", lines[4])
        lab06.text = lab06.text.replace("copy_restrict", "copy_other")
        with self.assertRaises(tables.cli.Refusal):
            table_specs.bench_products_and_transposes(lab08, lab03, lab06)

    def test_lines_between_the_tables_are_no_rows(self):
        log = bench_log.parse("device: X (sm_90)\n1,024 elements\nvariant  role\na  b\ncudalab: wrote 2 rows\n")
        self.assertEqual(log.runs, {1024: {"a": {"variant": "a", "role": "b"}}})


class renderer(ScriptTest):
    """A repository of one doc and one data file in a temporary folder."""

    def setUp(self):
        super().setUp()
        self.root = self.tmp / "repo"
        (self.root / "data").mkdir(parents=True)
        shutil.copy(FIXTURES / "timers.csv", self.root / "data" / "timers.csv")
        self.doc = self.root / "README.md"
        self.write_table(TIMERS)

    def write_table(self, table, begin=BEGIN, end=END):
        self.doc.write_text(f"# A lab\n\nThe timers:\n\n{begin}\n{table}\n{end}\n\nAfter the table.\n")

    def render(self, *args):
        return run_script("render-tables", ["--root", str(self.root)] + list(args))

    def test_a_table_equal_to_its_data_passes(self):
        code, out, err = self.render("--check")
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, "render-tables.sh: 1 tables, each equal to its data\n")

    def test_a_hand_edited_number_fails_the_check_with_a_diff(self):
        self.write_table(TIMERS.replace("25,626", "25,627"))
        code, out, _ = self.render("--check")
        self.assertEqual(code, 1)
        self.assertIn("--- a/README.md\n+++ b/README.md\n", out)
        self.assertIn("\n-| 16M | 5.24 us | 25,627 | 65.9 us | 2,036 |\n"
                      "+| 16M | 5.24 us | 25,626 | 65.9 us | 2,036 |\n", out)
        self.assertIn("1 of 1 tables differ from their data", out)
        self.assertIn("  README.md: lab02-timers", out)
        self.assertTrue(all(len(line) <= 120 for line in out.splitlines()), out)
        self.assertIn("25,627", self.doc.read_text(), "--check writes nothing")

    def test_render_rewrites_the_table_and_nothing_else(self):
        self.write_table("| floats |\n| --- |\n| 1M |")
        code, out, _ = self.render()
        self.assertEqual(code, 0)
        self.assertIn("1 tables, 1 rewritten", out)
        self.assertEqual(self.doc.read_text(),
                         f"# A lab\n\nThe timers:\n\n{BEGIN}\n{TIMERS}\n{END}\n\nAfter the table.\n")
        self.assertEqual(self.render("--check")[0], 0)

    def test_a_long_diff_line_goes_on_under_itself(self):
        self.assertEqual(tables.fitted("+" + "x" * 130), ["+" + "x" * 119, "+    " + "x" * 11])

    def test_a_missing_data_file_is_one_line_and_exit_2(self):
        (self.root / "data" / "timers.csv").unlink()
        err = self.assert_refused("render-tables", ["--check", "--root", str(self.root)])
        self.assertEqual(err, "render-tables.sh: table lab02-timers: data/timers.csv not found\n")

    def test_a_data_file_that_does_not_say_where_it_came_from_is_refused(self):
        lines = (FIXTURES / "timers.csv").read_text().splitlines()
        bare = [",".join(line.split(",")[-5:]) for line in lines]  # lab, variant, size, time, gbps
        (self.root / "data" / "timers.csv").write_text("\n".join(bare) + "\n")
        err = self.assert_refused("render-tables", ["--check", "--root", str(self.root)])
        self.assertEqual(err, "render-tables.sh: table lab02-timers: data/timers.csv: "
                              "lacks card, driver, date, command\n")
        (self.root / "data" / "provenance.csv").write_text(
            'file,card,driver,date,command\ntimers.csv,NVIDIA H100 80GB HBM3,580.159.04,2026-11-25,"cudalab run 02"\n')
        self.assertEqual(self.render("--check")[0], 0)

    def test_a_row_with_an_unquoted_comma_is_refused_not_rendered(self):
        lines = (FIXTURES / "timers.csv").read_text().splitlines()
        lines[1] = lines[1].replace(",", ",,", 1)  # one field more: every column after it shifts
        (self.root / "data" / "timers.csv").write_text("\n".join(lines) + "\n")
        err = self.assert_refused("render-tables", ["--check", "--root", str(self.root)])
        self.assertIn("data/timers.csv: line 2 has more or fewer fields than the header", err)

    def test_broken_markers_and_unknown_specs_are_refused(self):
        self.write_table(TIMERS, end="")
        self.assertIn("README.md:5: table lab02-timers has no end marker",
                      self.assert_refused("render-tables", ["--root", str(self.root)]))
        self.write_table(TIMERS, begin=BEGIN.replace("lab02-timers", "lab99"), end=END.replace("lab02-timers", "lab99"))
        self.assertIn("table lab99: no such spec", self.assert_refused("render-tables", ["--root", str(self.root)]))
        self.write_table(TIMERS, begin=BEGIN.replace("data/timers.csv", "data/timers.csv, data/timers.csv"))
        self.assertIn("the spec takes 1 data files, the marker names 2",
                      self.assert_refused("render-tables", ["--root", str(self.root)]))


RUN = "labs/04-coalescing/figures/runs/default.txt"
OUTPUT = """device: NVIDIA H100 80GB HBM3 (sm_90)   copy roof (cudaMemcpy D2D): 2919 GB/s
8,388,608 elements, 256 threads a block
variant            role       time    GB/s  %copy  ld sect/req
aos_float3         naive  106.5 us  2834.8   97.1        12.00   \n"""
SENTENCE = ("`build/release/tools/cudalab/cudalab run 04-coalescing` (NVIDIA H100 80GB HBM3, driver 580.159.04,\n"
            "2026-11-27):")


def captured(root, text=OUTPUT, command="build/release/tools/cudalab/cudalab run 04-coalescing"):
    """A captured output under root, as scripts/capture-readme-runs.sh leaves it: the file and its row
    of the provenance.csv beside it."""
    path = root / RUN
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    (path.parent / "provenance.csv").write_text(
        f'file,card,driver,date,command\ndefault.txt,NVIDIA H100 80GB HBM3,580.159.04,2026-11-27,"{command}"\n')


class verbatim_tables(unittest.TestCase):
    """The tool's own output: a sentence from the provenance row, then the file in a fence."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        captured(self.root)

    def tearDown(self):
        self.folder.cleanup()

    def render(self, table):
        return table_specs.SPECS[table](tables.Source(self.root, RUN))

    def test_the_file_in_a_fence_under_its_provenance_trailing_blanks_dropped(self):
        self.assertEqual(self.render("lab04-run"), SENTENCE + "\n\n```\n" + OUTPUT.rstrip().replace("12.00   ", "12.00")
                         + "\n```")

    def test_head_shows_the_first_lines_and_says_so(self):
        self.assertTrue(self.render("reading-default-view").startswith(SENTENCE[:20]), "4 lines: all of them")
        captured(self.root, text=OUTPUT + "aos_float3_staged  fixed\nsoa                fixed\n")
        text = self.render("reading-default-view")
        self.assertTrue(text.startswith("The first 5 lines of `build/release/tools/cudalab/cudalab run 04-coalescing`"))
        self.assertTrue(text.endswith("12.00\naos_float3_staged  fixed\n```"), text)

    def test_the_sentence_wraps_at_100_columns_and_a_fence_inside_gets_a_longer_fence(self):
        captured(self.root, text="```\nx\n")
        text = self.render("lab04-run")
        self.assertTrue(all(len(line) <= 100 for line in text.split("\n")), text)
        self.assertTrue(text.endswith("\n````\n```\nx\n````"), text)

    def test_an_output_of_another_command_is_refused(self):
        captured(self.root, command="build/release/tools/cudalab/cudalab run 04-coalescing --view full")
        with self.assertRaises(tables.cli.Refusal) as refused:
            self.render("lab04-run")
        self.assertIn("another command than RUNS names: capture it again", str(refused.exception))

    def test_a_marker_that_names_another_file_than_its_run_is_refused(self):
        with self.assertRaises(tables.cli.Refusal) as refused:
            self.render("lab04-run-full")
        self.assertIn(f"the marker names {RUN}, the run writes labs/04-coalescing/figures/runs/full.txt",
                      str(refused.exception))

    def test_each_file_is_captured_once_and_two_commands_for_one_file_are_refused(self):
        paths = [r.path for r in table_specs.captures()]
        self.assertEqual(len(paths), len(set(paths)))
        self.assertEqual(set(paths), {r.path for r in table_specs.RUNS.values()})
        for path in paths:
            self.assertRegex(path, r"^[a-z0-9/_.-]+/runs/[a-zA-Z0-9_.-]+\.txt$")
        runs = dict(table_specs.RUNS, clash=table_specs.Run("labs/04-coalescing/figures", "default", "run 04"))
        with unittest.mock.patch.object(table_specs, "RUNS", runs):
            with self.assertRaises(tables.cli.Refusal):
                table_specs.captures()


class verbatim_tables_in_a_doc(ScriptTest):
    def setUp(self):
        super().setUp()
        self.root = self.tmp / "repo"
        self.doc = self.root / "README.md"
        self.doc.parent.mkdir()
        marker = (f"<!-- table lab04-run: rendered from {RUN} by scripts/render-tables.sh; do not edit -->\n"
                  "<!-- end of table lab04-run -->\n")
        self.doc.write_text(f"# Lab 04\n\n{marker}\nWhat the table shows.\n")

    def test_a_missing_capture_is_one_line_and_exit_2(self):
        err = self.assert_refused("render-tables", ["--check", "--root", str(self.root)])
        self.assertEqual(err, f"render-tables.sh: table lab04-run: {RUN} not found\n")

    def test_rendered_then_checked_equal(self):
        captured(self.root)
        code, out, _ = run_script("render-tables", ["--root", str(self.root)])
        self.assertEqual((code, out), (0, "render-tables.sh: 1 tables, 1 rewritten\n  README.md: lab04-run\n"))
        self.assertIn(f"edit -->\n{SENTENCE}\n\n```\ndevice: NVIDIA H100", self.doc.read_text())
        self.assertIn("12.00\n```\n<!-- end of table lab04-run -->\n\nWhat the table shows.\n", self.doc.read_text())
        self.assertEqual(run_script("render-tables", ["--check", "--root", str(self.root)])[0], 0)


class repository(unittest.TestCase):
    def test_every_table_of_the_docs_equals_its_data(self):
        code, out, _ = run_script("render-tables", ["--check"])
        self.assertEqual(code, 0, out)


if __name__ == "__main__":
    unittest.main()
