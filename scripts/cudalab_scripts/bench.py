"""scripts/bench.sh [--build DIR] [--out DIR] [--sections LIST] [--model-only]: the benchmarks
behind the numbers in docs/ and the lab READMEs (never run while counters are collected, except
where that is the point).
  1. in-process counters vs ncu: wall time for the same counts of lab 04;
  2. NVTX cost with no tool attached against the lab's kernel time;
  3. large sizes: lab 04 at 2^26 float3 elements, lab 05 at 2^28 floats, without counters;
     lab 04's particle pair at 2^26 particles and its AoS -> SoA speedup; lab 06 at
     8192 x 8192 floats beside its copy kernel, and its stride sweep.
  4. the model's predictions without a GPU: each lab's default run, full sweeps, 2^24;
  5. the memory tracer's cost: lab 04 at its default size, untraced without counters, with
     in-process counters, and with --trace (one traced launch a point in a second process).
  6. the SASS-level shared-memory witness's cost: labs 04 and 06 at their default sizes with
     the data stage's shared counters alone, and with the SASS-level ones the kit grades by.
  7. lab 08 against cuBLAS from n = 256 to 8192: every variant's TFLOP/s as a share of
     cublasSgemm's measured in the same run (32 launches a point, no counters).
--sections picks sections by number (--sections 3,7; default all seven), so that a part can run
within a time limit or on a second GPU; --model-only is --sections 4 (no GPU needed).
--build (default build/release) and --out (default bench-results) are relative to the
repository root; the outputs are <out>/*.txt, *.csv, bench-runs.log and bench-commands.log.
Exit status: 0 done, 1 a run failed, 2 bad arguments.
"""
import csv
import io
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from . import cli
from .ncu import cupti_names

PROG = "bench.sh"
WIDTH = 120
# Section 4: what a learner without a GPU runs, from the cheapest to the widest sweep.
PREDICTIONS = [
    "run 01",
    "run 04",
    "run 05",
    "run 06",
    "run 06 --size 8192 --variant shared_stride --sweep 1..32",
    "run 01 --size 2^24",
    "run 04 --size 2^24",
    "run 04 --variant offset --sweep 0..32",
    "run 04 --variant stride --sweep 1..32",
    "run 04 --size 1G",
    "run 01 --variant grid_ceil_div,grid_stride,matrix_x_cols --size 2^10..2^36",
]
# Section 6: the data stage's shared counters alone, then the SASS-level ones the kit grades by.
WITNESS_SETS = [("data stage", "memory,pipe"),
                ("SASS level", "memory,shared_ld_wavefronts,shared_st_wavefronts,shared_ld_conflicts,"
                               "shared_st_conflicts")]


def parse(argv):
    parser = cli.Parser(PROG, __doc__)
    parser.add_argument("--build", default="build/release")
    parser.add_argument("--out", default="bench-results")
    parser.add_argument("--sections", default="1,2,3,4,5,6,7")
    parser.add_argument("--model-only", action="store_true")
    args = parser.parse(argv)
    if args.model_only:
        args.sections = "4"
    if not re.fullmatch(r"[1-7](,[1-7])*", args.sections):
        raise cli.bad(f"--sections '{args.sections}' must be section numbers 1 to 7, comma-separated")
    args.sections = {int(s) for s in args.sections.split(",")}
    args.build, args.out = (cli.ROOT / args.build, cli.ROOT / args.out)
    return args


def rows_of(text):
    return list(csv.DictReader(io.StringIO(text)))


def by_variant(rows, column, unswept_only=False):
    """{variant: float(column)} of a `cudalab run --format csv` table (a sweep's points left
    out with unswept_only)."""
    return {r["variant"]: float(r[column]) for r in rows if not (unswept_only and r["sweep"])}


def particles_line(rows):
    """Lab 04's particle pair: each time and bandwidth, and the ratio of the medians."""
    t, g = by_variant(rows, "time_ms_median"), by_variant(rows, "gbps")
    if t.get("particles_soa", 0) <= 0 or "particles_aos" not in t:
        raise cli.Refusal("particles: no times in the CSV")
    return (f"particles_aos {t['particles_aos']:.4f} ms ({g['particles_aos']:.1f} GB/s), particles_soa "
            f"{t['particles_soa']:.4f} ms ({g['particles_soa']:.1f} GB/s): SoA "
            f"{t['particles_aos'] / t['particles_soa']:.2f}x faster")


def transpose_lines(rows):
    """Lab 06 at 8192: each variant against the copy kernels measured beside it (the plain copy and,
    where the run has it, the copy with __restrict__ pointers), sorted."""
    t, g = by_variant(rows, "time_ms_median", True), by_variant(rows, "gbps", True)
    for needed in ("copy", "padded", "shared_tile", "tile_rows"):
        if t.get(needed, 0) <= 0:
            raise cli.Refusal(f"06: no {needed} time in the CSV")
    restrict = g.get("copy_restrict", 0) > 0

    # The run's copy roof, both of its copies (cudaMemcpy and the tuned copy kernel), where the
    # CSV has them: each transpose is also read against the better one.
    first = rows[0] if rows else {}
    roofs = {name: float(first[column]) for name, column in
             (("cudaMemcpy", "copy_memcpy_gbps"), ("copy kernel", "copy_kernel_gbps"))
             if (first.get(column) or "").strip()}
    roof = max(roofs.values(), default=0)

    def shares(v):
        text = f"{100 * g[v] / g['copy']:6.1f}% of copy"
        text += f" {100 * g[v] / g['copy_restrict']:6.1f}% of copy_restrict" if restrict else ""
        return text + (f" {100 * g[v] / roof:6.1f}% of the roof" if roof > 0 else "")

    lines = [f"{v:<20} {t[v]:.4f} ms {g[v]:7.1f} GB/s {shares(v)}"
             for v in g if v not in ("copy", "copy_restrict", "exercise")]
    if restrict:
        lines.append(f"{'copy_restrict':<20} {t['copy_restrict']:.4f} ms {g['copy_restrict']:7.1f} GB/s "
                     f"{100 * g['copy_restrict'] / g['copy']:6.1f}% of copy")
    summary = (f"padded is {t['shared_tile'] / t['padded']:.2f}x faster than shared_tile; tile_rows "
               f"reaches {100 * g['tile_rows'] / g['copy']:.1f}% of copy")
    if restrict:
        summary += f" and {100 * g['tile_rows'] / g['copy_restrict']:.1f}% of copy_restrict"
    if roof > 0:
        transposes = [v for v in g if v not in ("copy", "copy_restrict", "exercise")]
        best = max(transposes, key=lambda v: g[v])
        summary += (f"; roof {roof:.1f} GB/s, the better of "
                     + " and ".join(f"{name} {gbps:.1f}" for name, gbps in roofs.items())
                     + f": the best transpose, {best}, reaches {100 * g[best] / roof:.1f}% of it")
    lines.append(summary)
    return sorted(lines)


# Lab 08's sides in section 7.
SIZES_08 = "256,512,1024,2048,4096,8192"


def cublas_share_lines(rows):
    """Lab 08 by size: each variant's TFLOP/s as a share of cuBLAS's, measured in the same run (a
    swept variant once a point), then cuBLAS's own TFLOP/s."""
    sizes = sorted({int(r["size"]) for r in rows})
    def name(r):
        return f"{r['variant']} {r['sweep']}={r['param']}" if r["sweep"] else r["variant"]
    tflops = {(name(r), int(r["size"])): float(r["tflops"]) for r in rows if r["tflops"]}
    for n in sizes:
        if tflops.get(("cublas", n), 0) <= 0:
            raise cli.Refusal(f"08: no cublas TFLOP/s at n = {n} in the CSV")
    variants = [v for v in dict.fromkeys(name(r) for r in rows) if v not in ("cublas", "exercise")]
    width = max(len(v) for v in variants + ["cublas TFLOP/s"]) + 2
    lines = ["% of cublas".ljust(width) + "".join(f"{n:>9}" for n in sizes)]
    for v in variants:
        cells = [f"{100 * tflops[(v, n)] / tflops[('cublas', n)]:>8.1f}%" if (v, n) in tflops
                 else f"{'-':>9}" for n in sizes]
        lines.append(v.ljust(width) + "".join(cells))
    lines.append("cublas TFLOP/s".ljust(width) + "".join(f"{tflops[('cublas', n)]:>9.2f}" for n in sizes))
    return lines


def prediction_line(command, seconds):
    """One row of section 4: the median of the runs, then every run, fastest first (on a line of
    their own where the row would pass 120 columns)."""
    row = f"  {command:<42} {statistics.median(seconds):.3f} s"
    runs = f"(runs {' '.join(f'{s:.3f}' for s in sorted(seconds))})"
    return f"{row} {runs}" if len(row) + 1 + len(runs) <= WIDTH else f"{row}\n    {runs}"


def lines_after(text, pattern, count=20):
    """What grep -A<count> prints: each line holding pattern and the count lines after it."""
    lines, shown, last = text.splitlines(), [], None
    for i, line in enumerate(lines):
        if pattern in line:
            start = i if last is None else max(i, last + 1)
            if last is not None and start > last + 1:
                shown.append("--")
            shown.extend(lines[start:i + count + 1])
            last = max(last or 0, min(i + count, len(lines) - 1))
    return shown


class Bench:
    def __init__(self, args):
        self.args = args
        self.out = args.out
        self.tool = str(args.build / "tools" / "cudalab" / "cudalab")
        self.commands_log = self.out / "bench-commands.log"
        self.runs_log = self.out / "bench-runs.log"

    def say(self, *lines, to=None):
        """Prints the lines, and appends them to the file `to` (what tee -a did)."""
        print("\n".join(lines), flush=True)
        if to:
            with open(to, "a") as f:
                f.write("".join(line + "\n" for line in lines))

    def wall(self, command, check=True, environment=None):
        """Wall-clock seconds of the command, its output in bench-commands.log."""
        start = time.monotonic()
        with open(self.commands_log, "a") as log:
            code = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=environment,
                                  check=False).returncode
        seconds = time.monotonic() - start
        if check and code != 0:
            raise cli.Refusal(f"{' '.join(command)} exited {code} (see {self.commands_log})")
        return round(seconds, 2)

    def median3(self, command):
        times = [self.wall(command) for _ in range(3)]
        with open(self.runs_log, "a") as f:
            f.write(f"  {' '.join(command)} : {' '.join(f'{t:.2f}' for t in times)} s"[:WIDTH] + "\n")
        return statistics.median(times)

    def output(self, command, tee=None):
        """Runs the command, shows its output (and writes it to tee); a failure stops the bench."""
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        sys.stderr.write(done.stderr)
        if tee:
            Path(tee).write_text(done.stdout)
            print(done.stdout, end="", flush=True)
        if done.returncode != 0:
            raise cli.Refusal(f"cudalab {' '.join(command[1:])} exited {done.returncode}")
        return done.stdout

    def has_lab(self, lab):
        return subprocess.run([self.tool, "list", lab], capture_output=True, check=False).returncode == 0

    def counters_against_ncu(self):
        print("== 1. counters in-process vs ncu (lab 04 at 1M: every variant and sweep point, memory set, "
              "one launch each)")
        memory = ",".join(cupti_names(self.tool, "memory"))
        run04 = [self.tool, "run", "04", "--size", "1M", "--sweep", "full", "--warmup", "0", "--repeat", "1"]
        # One untimed run first (the first process after a while pays for loading the driver and
        # libraries), then the median of three runs of each command.
        self.wall(run04 + ["--no-counters"], check=False)
        plain = self.median3(run04 + ["--no-counters"])
        in_process = self.median3(run04 + ["--metrics", "memory"])
        traced = subprocess.run(run04 + ["--metrics", "memory"], capture_output=True, text=True, check=False,
                                env=dict(os.environ, CUDALAB_COUNTER_TRACE="1"))
        self.say(*lines_after(traced.stderr, "by Range Profiler step"))
        if not shutil.which("ncu"):
            self.say(f"cudalab run --no-counters: {plain:.2f} s;  with counters in-process: {in_process:.2f} s;  "
                     "ncu not found: no comparison")
            return
        ncu = self.median3(["ncu", "--metrics", memory] + run04 + ["--no-counters"])
        self.say(self.runs_log.read_text().rstrip("\n"), "median of 3 wall times:",
                 f"cudalab run --no-counters (the work itself): {plain:.2f} s",
                 f"cudalab run (counters in-process):           {in_process:.2f} s",
                 f"ncu --metrics ... cudalab run --no-counters: {ncu:.2f} s",
                 f"wall time: ncu / in-process = {ncu / in_process:.1f}x;  collection alone (minus the work): "
                 f"{(ncu - plain) / (in_process - plain):.1f}x")

    def nvtx_cost(self):
        print("== 2. NVTX ranges with no tool attached")
        table = self.output([self.tool, "run", "01", "--variant", "grid_ceil_div", "--size", "1M",
                             "--no-counters", "--format", "csv"])
        kernel_ms = rows_of(table)[0]["time_ms_median"]
        overhead = [str(self.args.build / "tools" / "bench" / "nvtx_overhead"), kernel_ms, "23"]
        # A default run times 3 warm-up + 20 repeats inside one set of ranges.
        print("no tool attached:", flush=True)
        untouched = {k: v for k, v in os.environ.items() if k != "NVTX_INJECTION64_PATH"}
        if subprocess.run(overhead, env=untouched, check=False).returncode != 0:
            raise cli.Refusal("nvtx_overhead failed with no tool attached")
        print("a tool attached (libcupti injected, no subscriber):", flush=True)
        cupti = os.environ.get("CUPTI_LIBRARY", "/usr/local/cuda/lib64/libcupti.so")
        subprocess.run(overhead, env=dict(os.environ, NVTX_INJECTION64_PATH=cupti), check=False)

    def large_sizes(self):
        print("== 3. large sizes (no counters)", flush=True)
        out, tool = self.out, self.tool
        if self.has_lab("04"):
            self.output([tool, "run", "04", "--size", "2^26", "--no-counters", "--repeat", "20", "--variant",
                         "aos_float3,aos_float3_staged,aos_float4,soa,char_per_thread,uchar4_packed,memcpy_d2d"],
                        tee=out / "04-2^26.txt")
            # One field of a 32-byte particle record (2 GiB of records, 40x the L2): CUDA events, 3
            # warm-ups, the median of 20 launches each; the speedup is the ratio of the medians.
            particles = out / "04-particles-2^26.csv"
            self.output([tool, "run", "04", "--size", "2^26", "--no-counters", "--repeat", "20", "--variant",
                         "particles_aos,particles_soa", "--format", "csv", "--output", str(particles)])
            (out / "04-particles-2^26.txt").unlink(missing_ok=True)
            self.say(particles_line(rows_of(particles.read_text())), to=out / "04-particles-2^26.txt")
        if self.has_lab("05"):
            self.output([tool, "run", "05", "--size", "2^28", "--no-counters", "--repeat", "20"],
                        tee=out / "05-2^28.txt")
        if self.has_lab("06"):
            # 8192 x 8192 floats (256 MiB a matrix, five times the L2): every variant in one run, so
            # the transposes are compared with the copy kernel measured beside them; then the full
            # stride sweep at the same side, for the README's plot (scripts/plot.py --x param).
            table = out / "06-8192.csv"
            self.output([tool, "run", "06", "--size", "8192", "--no-counters", "--repeat", "20", "--format",
                         "csv", "--output", str(table)])
            (out / "06-8192.txt").unlink(missing_ok=True)
            self.say(*transpose_lines(rows_of(table.read_text())), to=out / "06-8192.txt")
            self.output([tool, "run", "06", "--size", "8192", "--no-counters", "--repeat", "20", "--variant",
                         "shared_stride", "--sweep", "full", "--format", "csv", "--output",
                         str(out / "06-stride-8192.csv")])
            self.output([tool, "run", "06", "--variant", "shared_stride", "--sweep", "full", "--format", "csv",
                         "--output", str(out / "06-stride-1001-counters.csv")])

    def cublas_shares(self):
        print("== 7. lab 08 against cuBLAS, n = 256 to 8192 (no counters)", flush=True)
        if not self.has_lab("08"):
            return
        table = self.out / "08-sizes.csv"
        self.output([self.tool, "run", "08", "--variant",
                     "pad_to_64,coarse_1d,register_2d,vectorized,warp_tiled,cp_async_pipeline,cp_async_tuned,cublas",
                     "--size", SIZES_08, "--no-counters", "--repeat", "32", "--format", "csv", "--output", str(table)])
        (self.out / "08-sizes.txt").unlink(missing_ok=True)
        self.say(*cublas_share_lines(rows_of(table.read_text())), to=self.out / "08-sizes.txt")
        # The sweep cp_async_tuned's choices come from (tuned_pipeline_configs in
        # kernels/matmul/register_tiling_kernels.cuh), committed as
        # labs/08-register-tiling/figures/pipeline-configs-<card>.csv.
        configs = self.out / "08-pipeline-configs.csv"
        self.output([self.tool, "run", "08", "--variant", "cp_async_pipeline,cublas", "--sweep", "full", "--size",
                     SIZES_08, "--no-counters", "--repeat", "32", "--format", "csv", "--output", str(configs)])
        (self.out / "08-pipeline-configs.txt").unlink(missing_ok=True)
        self.say(*cublas_share_lines(rows_of(configs.read_text())), to=self.out / "08-pipeline-configs.txt")

    def tracer_cost(self):
        print("== 5. the memory tracer's cost (lab 04 at its default size, every variant and sweep point)")
        cost = self.out / "trace-cost.txt"
        cost.unlink(missing_ok=True)
        doctor = subprocess.run([self.tool, "doctor"], capture_output=True, text=True, check=False).stdout
        if "ok    memory tracer" not in doctor:
            self.say("no memory tracer in this build (cudalab doctor says why)", to=cost)
            return
        # A mismatch (exit 4) must not stop the benchmark: the logs say it, the GPU tests fail on it.
        plain = self.wall([self.tool, "run", "04", "--no-counters"], check=False)
        counted = self.wall([self.tool, "run", "04"], check=False)
        traced = self.wall([self.tool, "run", "04", "--no-counters", "--trace"], check=False)
        self.say(f"lab 04 (default size): untraced, no counters {plain:.2f} s; in-process counters {counted:.2f} s;",
                 f"  --trace {traced:.2f} s (the untraced run plus the traced one, one launch a point)", to=cost)

    def witness_cost(self):
        print("== 6. the SASS-level shared witness's cost (labs 04 and 06 at their default sizes, median of 3)")
        cost = self.out / "shared-witness-cost.txt"
        cost.unlink(missing_ok=True)
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "check": False}
        for lab in ("04", "06"):
            if not self.has_lab(lab):
                continue
            subprocess.run([self.tool, "run", lab, "--no-counters"], **quiet)  # load the driver once
            for label, metrics in WITNESS_SETS:
                times = []
                for _ in range(3):
                    start = time.monotonic()
                    subprocess.run([self.tool, "run", lab, "--metrics", metrics], **quiet)
                    times.append(round(time.monotonic() - start, 2))
                self.say(f"  lab {lab}, {label:<10}: {statistics.median(times):.2f} s (runs "
                         f"{' '.join(f'{t:.2f}' for t in times)})", to=cost)

    def predict_once(self, args):
        """Seconds of one prediction-only run: CUDA_VISIBLE_DEVICES= hides any GPU, so the run
        prints predictions only and exits 3; any other exit (a refusal, a crash) fails the bench."""
        start = time.monotonic()
        with open(self.commands_log, "a") as log:
            code = subprocess.run([self.tool] + args, stdout=subprocess.DEVNULL, stderr=log, check=False,
                                  env=dict(os.environ, CUDA_VISIBLE_DEVICES="")).returncode
        if code != 3:
            raise cli.Refusal(f"cudalab {' '.join(args)} exited {code}")
        return time.monotonic() - start

    def model_predictions(self):
        cores = len(os.sched_getaffinity(0))
        print(f"== 4. the model's predictions without a GPU (wall time, median of 5; {cores} cores)", flush=True)
        for command in PREDICTIONS:
            args = command.split()
            self.predict_once(args)  # warm the page cache
            self.say(prediction_line(command, [self.predict_once(args) for _ in range(5)]))


def run(argv):
    args = parse(argv)
    bench = Bench(args)
    if not os.access(bench.tool, os.X_OK):
        raise cli.Refusal(f"{bench.tool} not found: build first (scripts/setup.sh)")
    cli.output_folder(args.out)
    bench.runs_log.write_text("")
    sections = [(1, bench.counters_against_ncu), (2, bench.nvtx_cost), (3, bench.large_sizes),
                (5, bench.tracer_cost), (6, bench.witness_cost), (7, bench.cublas_shares),
                (4, bench.model_predictions)]
    for number, section in sections:
        if number in args.sections:
            section()
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
