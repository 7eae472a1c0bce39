"""The specs of the docs' measured tables (scripts/render-tables.sh): for each table name, which
rows and columns of its data files it shows and how each number is written. A spec takes the
table's data files (tables.Source: .rows of a CSV, .log of a bench.sh log), in the order its
marker names them, and returns the text between the markers.

Numbers are written as the docs write them: thousands separated by commas, a space before %,
none before x.

The tool's own output, verbatim, has one list, RUNS: a line there is a table of the docs, the
command scripts/capture-readme-runs.sh runs on a GPU for it, and the file it writes."""
import csv
import math
import textwrap

from cudalab_scripts import bench_log, cli


def thousands(value, decimals=1):
    return f"{value:,.{decimals}f}"


def significant(value, digits=3):
    """3 significant digits (77.0, 4.64, 962); whole numbers with commas from 1,000 on."""
    if value >= 10 ** digits:
        return thousands(value, 0)
    return f"{value:.{max(0, digits - 1 - math.floor(math.log10(abs(value))))}f}"


def percent(part, whole):
    return f"{100 * part / whole:.1f} %"


def card(name):
    return name.replace("NVIDIA ", "")


def row(*cells):
    return "| " + " | ".join(cells) + " |"


def header(*names):
    return [row(*names), "|" + " --- |" * len(names)]


def one(rows, what, **match):
    """The one row whose columns hold the values of match; a data file without it fails the table."""
    found = [r for r in rows if all(r.get(k) == str(v) for k, v in match.items())]
    if len(found) != 1:
        raise cli.bad(f"{what}: {len(found)} rows with {match}, not 1")
    return found[0]


def run_row(log, what, elements, variant):
    try:
        return log.log.runs[elements][variant]
    except KeyError:
        raise cli.bad(f"{log.name}: no {variant} in a run of {elements:,} elements ({what})") from None


# docs/benchmarks.md: the H100 and the H200 side by side.

def bench_side_by_side(h100_log, h100_transposes, h200_log, h200_transposes, h100_witness, h200_witness):
    cards = [(h100_log, h100_transposes, h100_witness), (h200_log, h200_transposes, h200_witness)]
    lines = header("figure", *(card(log.log.device) for log, _, _ in cards))
    figures = {
        "`cudaMemcpy` device to device, lab 04 at 2^26 (`memcpy_d2d`)": lambda log, csv, w:
            f"{gbps(log, 2 ** 26, 'memcpy_d2d'):,.1f} GB/s",
        "lab 04 `aos_float3_staged` at 2^26, against `memcpy_d2d`": lambda log, csv, w:
            against_copy(log, "aos_float3_staged"),
        "lab 04 `soa` at 2^26": lambda log, csv, w: against_copy(log, "soa"),
        "lab 04 particles at 2^26: `particles_soa` over `particles_aos`": lambda log, csv, w:
            f"{printed(log, 'particle_speedup')}x",
        "lab 05 at 2^28: `grid_stride` against CUB's `DeviceReduce::Sum`": lambda log, csv, w:
            against(gbps(log, 2 ** 28, "grid_stride"), gbps(log, 2 ** 28, "cub")),
        "lab 06 at 8192: `tile_rows` against the `copy` kernel": lambda log, csv, w:
            against(transpose(csv, "tile_rows", "gbps"), transpose(csv, "copy", "gbps")),
        "lab 06 at 8192: `tile_rows` against `cudaMemcpy` (`%copy`)": lambda log, csv, w:
            f"{transpose(csv, 'tile_rows', 'pct_of_copy_roof'):.1f} %",
        "lab 06 at 8192: `padded` over `shared_tile`": lambda log, csv, w:
            f"{transpose(csv, 'shared_tile', 'time_ms_median') / transpose(csv, 'padded', 'time_ms_median'):.2f}x",
        "shared-memory counts at the SASS level equal to the model (`scripts/shared-witness.sh`)":
            lambda log, csv, w: "{} of {}".format(*witness_agreement(w)),
    }
    for figure, cell in figures.items():
        lines.append(row(figure, *(cell(*c) for c in cards)))
    return "\n".join(lines)


def gbps(log, elements, variant):
    return float(run_row(log, "GB/s", elements, variant)["GB/s"])


def against_copy(log, variant):
    measured = gbps(log, 2 ** 26, variant)
    return f"{measured:,.1f} GB/s, {percent(measured, gbps(log, 2 ** 26, 'memcpy_d2d'))}"


def against(measured, reference):
    return f"{measured:,.1f} against {reference:,.1f} GB/s, {percent(measured, reference)}"


def printed(log, what):
    value = getattr(log.log, what)
    if value is None:
        raise cli.bad(f"{log.name}: no line of bench.sh gives its {what.replace('_', ' ')}")
    return value


def transpose(source, variant, column):
    return float(one(source.rows, source.name, variant=variant, sweep="")[column])


SASS_COUNTS = ["shared_ld_wavefronts", "shared_st_wavefronts", "shared_ld_conflicts", "shared_st_conflicts"]


def witness_agreement(source):
    """(equal, compared): the SASS-level shared counts of a shared-witness CSV that the model
    predicts, and how many of them equal it."""
    pairs = [(r[m + "_measured"], r[m + "_predicted"]) for r in source.rows for m in SASS_COUNTS
             if r[m + "_measured"] != "" and r[m + "_predicted"] != ""]
    return sum(float(a) == float(b) for a, b in pairs), len(pairs)


def bench_witness_cost(h100_log, h200_log):
    lines = header("run", *(card(log.provenance["card"]) for log in (h100_log, h200_log)))
    for lab in ("04", "06"):
        for what in ("data stage", "SASS level"):
            cells = []
            for log in (h100_log, h200_log):
                seconds = log.log.witness_cost.get((lab, what))
                if seconds is None:
                    raise cli.bad(f"{log.name}: no line for lab {lab}, {what}")
                cells.append(f"{seconds} s")
            lines.append(row(f"lab {lab}, {what}", *cells))
    return "\n".join(lines)


def bench_model_only(log):
    """docs/benchmarks.md: the prediction-only runs of scripts/bench.sh --model-only, as logged."""
    if not log.log.predictions:
        raise cli.bad(f"{log.name}: no prediction-only run (section 4 of scripts/bench.sh)")
    lines = header("command (no GPU)", "wall time, median of 5")
    for command, seconds in log.log.predictions:
        lines.append(row(f"`cudalab run {command}`", f"{seconds} s"))
    return "\n".join(lines)


def bench_products_and_transposes(lab08, lab03, lab06):
    """docs/benchmarks.md: the labs' captured runs at the benchmark sizes, summed up in a line
    each (lab 08 at 4096, lab 03's tile sweep at 4096, lab 06 at 8192)."""
    def table(output, size):
        try:
            return bench_log.parse(output.text).runs[size]
        except KeyError:
            raise cli.bad(f"{output.name}: no run at {size:,}") from None

    def cell(rows, variant, column, output):
        try:
            return rows[variant][column]
        except KeyError:
            raise cli.bad(f"{output.name}: no {column} for {variant}") from None

    def seconds(text):
        value, unit = text.split()
        return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]

    p = table(lab08, 4096)
    shares = ", ".join(f"`{v}` {cell(p, v, '%cublas', lab08)} %"
                       for v in ("vectorized", "register_2d", "pad_to_64", "coarse_1d"))
    best = "warp_tiled config=0"
    products = (f"`warp_tiled` {cell(p, best, 'TFLOP/s', lab08)} TFLOP/s, **{cell(p, best, '%cublas', lab08)} %** "
                f"of `cublasSgemm` ({cell(p, 'cublas', 'TFLOP/s', lab08)}, FP32, TF32 off); {shares}")
    t = table(lab03, 4096)
    tiles = (f"best tile (T = 32) {cell(t, 'tiled tile=32', 'TFLOP/s', lab03)} TFLOP/s, "
             f"{float(cell(t, 'tiled tile=32', 'TFLOP/s', lab03)) / float(cell(t, 'naive', 'TFLOP/s', lab03)):.2f}x "
             f"`naive` ({cell(t, 'naive', 'TFLOP/s', lab03)}); T = 2 and 4 at {cell(t, 'tiled tile=2', 'TFLOP/s', lab03)} "
             f"and {cell(t, 'tiled tile=4', 'TFLOP/s', lab03)} TFLOP/s")
    r = table(lab06, 8192)
    gbps = {v: float(cell(r, v, "GB/s", lab06)) for v in ("copy", "copy_restrict", "tile_rows")}
    time = {v: seconds(cell(r, v, "time", lab06)) for v in ("shared_tile", "padded", "naive_row_read", "naive_col_read")}
    transposes = (f"`tile_rows` {cell(r, 'tile_rows', 'time', lab06)}, {100 * gbps['tile_rows'] / gbps['copy']:.0f} % of "
                  f"the `copy` kernel's bandwidth and {100 * gbps['tile_rows'] / gbps['copy_restrict']:.1f} % of "
                  f"`copy_restrict`'s ({cell(r, 'tile_rows', '%copy', lab06)} % of `cudaMemcpy`'s); `tile64_rows` "
                  f"{cell(r, 'tile64_rows', 'time', lab06)} ({cell(r, 'tile64_rows', '%copy', lab06)} %); `padded` "
                  f"{time['shared_tile'] / time['padded']:.2f}x `shared_tile`; `naive_col_read` "
                  f"{time['naive_row_read'] / time['naive_col_read']:.1f}x `naive_row_read`")
    lines = header("run", "result")
    for output, result in ((lab08, products), (lab03, tiles), (lab06, transposes)):
        command = output.provenance["command"]
        lines.append(row(f"`{command[command.index('cudalab ') if 'cudalab ' in command else 0:]}`", result))
    return "\n".join(lines)


# docs/counters.md: the data stage's shared wavefronts over the SASS-level ones
# (the CSVs of scripts/shared-witness.sh, one a card).

# The rows: (lab, variant, param, size, what the row shows).
EXCESS_ROWS = [
    ("06-bank-conflicts", "shared_stride", "1", "1001", "lab 06 `shared_stride`, s = 1 (conflict-free)"),
    ("06-bank-conflicts", "shared_stride", "1", "8191", "lab 06 `shared_stride`, s = 1"),
    ("06-bank-conflicts", "padded", "0", "8191", "lab 06 `padded`"),
    ("06-bank-conflicts", "shared_stride", "32", "8191", "lab 06 `shared_stride`, s = 32 (32-way conflicts)"),
    ("05-reduction", "sequential", "0", "2097153", "lab 05 `sequential`"),
    ("05-reduction", "sequential", "0", "16777216", "lab 05 `sequential`"),
    ("05-reduction", "interleaved_divergent", "0", "16777216",
     "lab 05 `interleaved_divergent` (stores through a call)"),
    ("03-shared-memory-tiling", "tiled", "32", "1001", "lab 03 `tiled`, T = 32"),
    ("03-shared-memory-tiling", "tiled", "32", "4097", "lab 03 `tiled`, T = 32"),
    ("08-register-tiling", "warp_tiled", "0", "1001", "lab 08 `warp_tiled`"),
]


def excess(r, side):
    sass = float(r[f"shared_{side}_wavefronts_measured"])
    pipe = float(r[f"pipe_{side}_wavefronts"])
    return "0" if pipe == sass else f"{100 * (pipe - sass) / sass:+.2f} %"


def shared_witness_excess(h100, h200):
    witnesses = (h100, h200)
    names = [card(w.provenance["card"]) for w in witnesses]
    lines = header("kernel", "size", *(f"{n} {side}" for n in names for side in ("loads", "stores")))
    for lab, variant, param, size, what in EXCESS_ROWS:
        cells = []
        for w in witnesses:
            r = one(w.rows, w.name, lab=lab, variant=variant, param=param, size=size)
            cells += [excess(r, "ld"), excess(r, "st")]
        lines.append(row(what, f"{int(size):,}", *cells))
    dates = ", ".join(f"{n} {w.provenance['date']}" for n, w in zip(names, witnesses))
    lines += ["", f"The data stage's wavefronts over the SASS-level ones ({dates}; "
              + ", ".join(f"`{w.name}`" for w in witnesses) + ")."]
    return "\n".join(lines)


# labs/02-memory-spaces: transfers, timers and allocation against size (figures/*.csv).

def size_in_floats(floats, notes=None):
    """4096 -> 4K, 268435456 -> 256M; notes add a unit where the table gives one."""
    label = f"{floats // 2 ** 20}M" if floats >= 2 ** 20 else f"{floats // 2 ** 10}K"
    return f"{label} ({notes[floats]})" if notes and floats in notes else label


def sizes_of(rows, variant):
    return sorted({int(r["size"]) for r in rows if r["variant"] == variant})


def lab02_transfers(transfers):
    variants = ["pageable_h2d", "pinned_h2d", "pageable_d2h", "pinned_d2h"]
    lines = header("floats", "pageable H2D", "pinned H2D", "pageable D2H", "pinned D2H")
    notes = {4096: "16 KiB", 2 ** 28: "1 GiB"}
    for size in sizes_of(transfers.rows, variants[0]):
        lines.append(row(size_in_floats(size, notes),
                         *(one(transfers.rows, transfers.name, variant=v, size=size)["gbps"] for v in variants)))
    return "\n".join(lines)


def microseconds(r):
    return f"{significant(1000 * float(r['time_ms_median']))} us"


def lab02_timers(timers):
    lines = header("floats", "`host_timer_no_sync`", 'its "GB/s"', "`event_timed`", "GB/s")
    for size in sizes_of(timers.rows, "host_timer_no_sync"):
        host = one(timers.rows, timers.name, variant="host_timer_no_sync", size=size)
        event = one(timers.rows, timers.name, variant="event_timed", size=size)
        lines.append(row(size_in_floats(size), microseconds(host), thousands(float(host["gbps"]), 0),
                         microseconds(event), thousands(float(event["gbps"]), 0)))
    return "\n".join(lines)


def lab02_alloc(alloc):
    lines = header("floats", "`alloc_free`", "the kernel (`event_timed`)", "allocation / kernel")
    for size in sizes_of(alloc.rows, "alloc_free"):
        allocation = one(alloc.rows, alloc.name, variant="alloc_free", size=size)
        kernel = one(alloc.rows, alloc.name, variant="event_timed", size=size)
        ratio = float(allocation["time_ms_median"]) / float(kernel["time_ms_median"])
        lines.append(row(size_in_floats(size), microseconds(allocation), microseconds(kernel),
                         f"{significant(ratio, 2)}x"))
    return "\n".join(lines)


def lab02_streams(streams):
    """Lab 02's two pipelines side by side, one launch each (scripts/stream-timeline.sh): every copy
    and kernel with its stream and its span in microseconds from the launch's first operation."""
    def column(variant):
        ops = [r for r in streams.rows if r["variant"] == variant]
        if not ops:
            raise cli.bad(f"{streams.name}: no {variant} rows")
        return [f"{r['op']:<3}  stream {r['stream']}  {float(r['start_us']):8.1f} .. {float(r['end_us']):8.1f} us"
                + (f"  {int(r['bytes']) >> 20} MiB" if r["bytes"] else "") for r in ops]
    left, right = column("one_stream"), column("overlap_streams")
    width = max(len(line) for line in left) + 4
    lines = [f"{'one_stream':<{width}}overlap_streams"]
    for n in range(max(len(left), len(right))):
        line = f"{left[n] if n < len(left) else '':<{width}}{right[n] if n < len(right) else ''}"
        lines.append(line.rstrip())
    made = streams.provenance
    sentence = (f"`{made['command']}` ({card(made['card'])}, driver {made['driver']}, {made['date']}): the last "
                "launch of each, times from its first operation.")
    return "\n".join(textwrap.wrap(sentence, 100, break_long_words=False, break_on_hyphens=False)
                     + ["", "```"] + lines + ["```"])


def lab07_barrier_probes(probes):
    """Lab 07's barrier misuses (scripts/barrier-probes.sh): what each did alone and under synccheck."""
    lines = header("the barrier form (`cudalab_barrier_probes` name)", "runs without the tool", "synccheck")
    for r in probes.rows:
        checked = r["synccheck"].removeprefix("Barrier error detected. ")
        lines.append(row(f"{r['misuse']} (`{r['form']}`)", r["without_tool"],
                         f"`{checked}`" if checked not in ("nothing", "hangs") else checked))
    made = probes.provenance
    sentence = f"`{made['command']}` ({card(made['card'])}, driver {made['driver']}, {made['date']})."
    return "\n".join(lines + [""] + textwrap.wrap(sentence, 100, break_long_words=False, break_on_hyphens=False))


# labs 03 and 08: TFLOP/s against the matrix side, as a fixed-width block (figures/sizes.csv).

def tflops_block(rows, kernels, width, decimals, extra_rows=()):
    """A ``` block: a label column width wide, then one column of 8 a size; one line a kernel
    (label, variant, param), '-' where it did not run at that size; extra_rows: (label, function
    of the size that gives the cell)."""
    sizes = sorted({int(r["size"]) for r in rows})
    by_key = {(r["variant"], r["param"], int(r["size"])): r for r in rows}

    def tflops(variant, param, size):
        r = by_key.get((variant, param, size))
        return f"{float(r['tflops']):.{decimals.get(variant, 2)}f}" if r else "-"

    lines = [(label, [tflops(variant, param, s) for s in sizes]) for label, variant, param in kernels]
    lines += [(label, [cell(s) for s in sizes]) for label, cell in extra_rows]
    text = [label.ljust(width) + "".join(f"{c:>8}" for c in cells)
            for label, cells in [("variant", [str(s) for s in sizes])] + lines]
    return "\n".join(["```"] + text + ["```"])


def lab03_sizes(sizes):
    kernels = [("cpu_naive", "cpu_naive", "0"), ("naive", "naive", "0"), ("tiled T=8", "tiled", "8"),
               ("tiled T=16", "tiled", "16"), ("tiled T=32", "tiled", "32"), ("cublas", "cublas", "0")]
    return tflops_block(sizes.rows, kernels, 13, {"cpu_naive": 3})


def lab08_sizes(sizes):
    variants = ["pad_to_64", "coarse_1d", "register_2d", "vectorized", "warp_tiled", "cp_async_pipeline",
                "cp_async_tuned", "cublas"]
    present = {r["variant"] for r in sizes.rows}
    tflops = {(r["variant"], int(r["size"])): float(r["tflops"]) for r in sizes.rows}

    def share(variant):
        return (f"{variant} %", lambda s: f"{100 * tflops[(variant, s)] / tflops[('cublas', s)]:.1f}%")
    shown = [v for v in variants if v in present]
    shares = [share(v) for v in ("warp_tiled", "cp_async_pipeline", "cp_async_tuned") if v in present]
    return tflops_block(sizes.rows, [(v, v, "0") for v in shown], 20, {}, shares)


# The shape of each warp-tiled configuration, for the sweep's table (warp_tiled_tilings in
# kernels/matmul/register_tiling_kernels.cuh).
CONFIG_SHAPES = {
    "0": "128 x 128, BK 16, 4 warps of 64 x 64",
    "1": "128 x 128, BK 8, 8 warps of 64 x 32",
    "2": "128 x 256, BK 16, 8 warps of 64 x 64",
    "3": "64 x 64, BK 16, 4 warps of 32 x 32",
    "4": "128 x 128, BK 16, 8 warps of 64 x 32",
    "5": "64 x 128, BK 16, 8 warps of 32 x 32",
    "6": "96 x 128, BK 16, 4 warps of 96 x 32",
}


def lab08_pipeline_configs(*sweeps):
    """Lab 08: cp_async_pipeline in every configuration as a share of cuBLAS measured in the same
    run, by size, one block of rows a card; the fastest configuration of each size in bold (the one
    cp_async_tuned runs: scripts/tests/test_tuned_configs.py holds the kernel's table to it)."""
    sizes = sorted({int(r["size"]) for r in sweeps[0].rows})
    lines = header("card", "configuration", "registers", *[f"n = {n}" for n in sizes])
    for source in sweeps:
        tflops = {(r["variant"], r["param"], int(r["size"])): float(r["tflops"]) for r in source.rows if r["tflops"]}
        registers = {r["param"]: r.get("registers", "") for r in source.rows if r["variant"] == "cp_async_pipeline"}
        configs = sorted({p for v, p, _ in tflops if v == "cp_async_pipeline"}, key=int)
        best = {n: max(configs, key=lambda p: tflops.get(("cp_async_pipeline", p, n), 0)) for n in sizes}
        for p in configs:
            cells = []
            for n in sizes:
                share = percent(tflops[("cp_async_pipeline", p, n)], tflops[("cublas", "0", n)])
                cells.append(f"**{share}**" if best[n] == p else share)
            lines.append(row(card(source.provenance["card"]), f"{p}: {CONFIG_SHAPES[p]}", registers.get(p, ""),
                             *cells))
    return "\n".join(lines)


def bench_cublas_shares(h100_sizes, h200_sizes):
    """docs/benchmarks.md: each lab 08 kernel's TFLOP/s as a share of cuBLAS's measured in the same
    run, by size, on each card (scripts/bench.sh --sections 7)."""
    variants = ["pad_to_64", "coarse_1d", "register_2d", "vectorized", "warp_tiled", "cp_async_pipeline",
                "cp_async_tuned"]
    sizes = sorted({int(r["size"]) for r in h100_sizes.rows})
    lines = header("card", "kernel", *[f"n = {n}" for n in sizes])
    for name, source in (("H100", h100_sizes), ("H200", h200_sizes)):
        tflops = {(r["variant"], int(r["size"])): float(r["tflops"]) for r in source.rows if r["tflops"]}
        for v in variants + ["cublas"]:
            if v == "cublas":
                cells = [f"{tflops[('cublas', n)]:.2f} TFLOP/s" for n in sizes]
            else:
                cells = [percent(tflops[(v, n)], tflops[("cublas", n)]) if (v, n) in tflops else "-"
                         for n in sizes]
            lines.append(row(name, f"`{v}`", *cells))
    return "\n".join(lines)


# The tool's own output, verbatim: a table shows one file that scripts/capture-readme-runs.sh writes
# on a GPU, <folder>/runs/<name>.txt (what `cudalab ARGS` printed, its standard output and then its
# standard error), and the file's row of the provenance.csv beside it.

class Run:
    """One command of the capture and the file it writes. status: the exit status the command ends
    with when all is well (1 for `check` of an untouched exercise, which fails); head: the table
    shows only the file's first lines. Tables that show one file share its command."""

    def __init__(self, folder, name, args, status=0, head=None):
        self.folder, self.name, self.args, self.status, self.head = folder, name, args, status, head
        self.path = f"{folder}/runs/{name}.txt"

    def command(self, build="build/release"):
        """The command as the learner types it, from the repository root."""
        return f"{build}/tools/cudalab/cudalab {self.args}"


# Table name (the doc's marker) -> the run. A new verbatim table is a line here and its marker.
RUNS = {
    "lab01-run": Run("labs/01-thread-indexing/figures", "default", "run 01-thread-indexing"),
    "lab01-run-full": Run("labs/01-thread-indexing/figures", "full", "run 01-thread-indexing --view full"),
    "lab02-run": Run("labs/02-memory-spaces/figures", "default", "run 02"),
    "lab02-coefficients": Run("labs/02-memory-spaces/figures", "coefficients",
                              "run 02 --variant coeffs_global,coeffs_constant,constant_divergent,coeffs_shared "
                              "--view full --repeat 32 --metrics memory,shared,constant"),
    "lab02-local-dram": Run("labs/02-memory-spaces/figures", "local-dram",
                            "run 02 --variant local_spill,registers --metrics memory,local,dram --format csv"),
    "lab03-run": Run("labs/03-shared-memory-tiling/figures", "default", "run 03-shared-memory-tiling"),
    "lab03-tiles-4096": Run("labs/03-shared-memory-tiling/figures", "tiles-4096",
                            "run 03 --size 4096 --variant naive,tiled,cublas --sweep tile=2,4,8,16,32 "
                            "--no-counters --repeat 5"),
    "lab03-check": Run("labs/03-shared-memory-tiling/figures", "check", "check 03", status=1),
    "lab04-run": Run("labs/04-coalescing/figures", "default", "run 04-coalescing"),
    "lab04-run-full": Run("labs/04-coalescing/figures", "full", "run 04-coalescing --view full"),
    "lab04-details": Run("labs/04-coalescing/figures", "details-aos_float3", "run 04 --details aos_float3"),
    "lab04-float3-large": Run("labs/04-coalescing/figures", "float3-large",
                              "run 04 --size 2^26 --no-counters --repeat 20 --variant aos_float3,"
                              "aos_float3_staged,aos_float4,soa,char_per_thread,uchar4_packed,memcpy_d2d"),
    "lab04-particles-large": Run("labs/04-coalescing/figures", "particles-large",
                                 "run 04 --variant particles_aos,particles_soa --size 2^26 --no-counters"),
    "lab05-run": Run("labs/05-reduction/figures", "default", "run 05-reduction"),
    "lab05-run-large": Run("labs/05-reduction/figures", "large", "run 05 --size 2^28 --no-counters --repeat 20"),
    "lab05-check": Run("labs/05-reduction/figures", "check", "check 05-reduction", status=1),
    "lab06-run": Run("labs/06-bank-conflicts/figures", "default", "run 06-bank-conflicts"),
    "lab06-run-8192": Run("labs/06-bank-conflicts/figures", "8192",
                          "run 06-bank-conflicts --size 8192 --no-counters --repeat 10"),
    "lab07-run": Run("labs/07-debugging/figures", "default", "run 07"),
    "lab08-run": Run("labs/08-register-tiling/figures", "default", "run 08"),
    "lab08-run-4096": Run("labs/08-register-tiling/figures", "4096", "run 08 --size 4096 --no-counters --repeat 10"),
    "lab08-check": Run("labs/08-register-tiling/figures", "check", "check 08", status=1),
    "lab08-warp-tiled-0-4-h200": Run("labs/08-register-tiling/figures", "warp-tiled-0-4-h200",
                                     "run 08 --variant warp_tiled,cublas --sweep config=0,4 --size 4096,8192 "
                                     "--no-counters --repeat 10"),
    "lab08-configs-4096": Run("labs/08-register-tiling/figures", "configs-4096",
                              "run 08 --variant warp_tiled,vectorized,register_2d,cublas --size 4096 "
                              "--sweep config=0,1,2 --no-counters"),
    "reading-default-view": Run("labs/04-coalescing/figures", "default", "run 04-coalescing", head=5),
    "metrics-trace": Run("docs/data", "trace-aos_float3", "run 04 --variant aos_float3 --size 2^20 --trace"),
}


def captures():
    """The runs to capture, one a file, in the order of RUNS; two tables that show one file must
    name the same command."""
    by_path = {}
    for name, run in RUNS.items():
        first = by_path.setdefault(run.path, run)
        if (first.args, first.status) != (run.args, run.status):
            raise cli.bad(f"table {name}: {run.path} is captured by two commands in RUNS")
    return list(by_path.values())


def verbatim(run):
    """The spec of a verbatim table: the provenance sentence, then the file in a ``` fence."""

    def spec(output):
        if output.name != run.path:
            raise cli.bad(f"the marker names {output.name}, the run writes {run.path}")
        made = output.provenance
        if not made["command"].endswith(f"cudalab {run.args}"):
            raise cli.bad(f"{output.name} is the output of another command than RUNS names: "
                          f"capture it again")
        lines = [line.rstrip() for line in output.text.rstrip("\n").split("\n")]
        what = f"`{made['command']}`"
        if run.head and len(lines) > run.head:
            lines, what = lines[:run.head], f"The first {run.head} lines of {what}"
        sentence = f"{what} ({made['card']}, driver {made['driver']}, {made['date']}):"
        fence = "```"
        while any(line.startswith(fence) for line in lines):
            fence += "`"
        wrapped = textwrap.wrap(sentence, 100, break_long_words=False, break_on_hyphens=False)
        return "\n".join(wrapped + ["", fence] + lines + [fence])

    return spec


SPECS = {
    "bench-h100-h200": bench_side_by_side,
    "bench-witness-cost": bench_witness_cost,
    "bench-model-only": bench_model_only,
    "bench-products-and-transposes": bench_products_and_transposes,
    "bench-cublas-shares": bench_cublas_shares,
    "shared-witness-excess": shared_witness_excess,
    "lab02-transfers": lab02_transfers,
    "lab02-timers": lab02_timers,
    "lab02-alloc": lab02_alloc,
    "lab02-streams": lab02_streams,
    "lab07-barrier-probes": lab07_barrier_probes,
    "lab03-sizes": lab03_sizes,
    "lab08-sizes": lab08_sizes,
    "lab08-pipeline-configs": lab08_pipeline_configs,
}
SPECS.update({name: verbatim(run) for name, run in RUNS.items()})


def csv_rows_of_output(output):
    """The CSV rows of a captured `--format csv` run: its standard output, then the tool's notes
    (lines that start with "cudalab:"), which are no rows."""
    lines = [line for line in output.text.split("\n") if line and not line.startswith(("cudalab:", "  fix:"))]
    return list(csv.DictReader(lines))


def lab02_local_dram(output):
    """Lab 02: local_spill's local traffic beside the bytes DRAM moved, and registers' for scale."""
    rows = {r["variant"]: r for r in csv_rows_of_output(output)}
    lines = header("variant", "time", "local sectors (ld + st)", "their bytes", "DRAM read", "DRAM written")
    for variant in ("local_spill", "registers"):
        r = rows.get(variant)
        if r is None:
            raise cli.bad(f"{output.name}: no {variant} row")
        try:
            local = float(r["local_ld_sectors_measured"]) + float(r["local_st_sectors_measured"])
            read, written = float(r["dram_read_bytes"]), float(r["dram_write_bytes"])  # measured only
            time_us = 1000 * float(r["time_ms_median"])
        except (KeyError, ValueError):
            raise cli.bad(f"{output.name}: {variant} lacks a measured time, local sectors or DRAM bytes") from None
        lines.append(row(f"`{variant}`", f"{significant(time_us, 4)} us", thousands(local, 0),
                         f"{local * 32 / 1e9:.2f} GB", f"{read / 1e6:.1f} MB", f"{written / 1e6:.1f} MB"))
    made = output.provenance
    sentence = (f"`build/release/tools/cudalab/cudalab {RUNS['lab02-local-dram'].args}` ({card(made['card'])}, "
                f"driver {made['driver']}, {made['date']}).")
    lines += [""] + textwrap.wrap(sentence, 100, break_long_words=False, break_on_hyphens=False)
    return "\n".join(lines)


SPECS["lab02-local-dram"] = lab02_local_dram
