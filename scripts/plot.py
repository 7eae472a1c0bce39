#!/usr/bin/env python3
"""Plot a `cudalab run --format csv` sweep: PNGs written next to the CSV.

Default (sweeps such as lab 04's offset and stride): for every sweep found in the CSV, two
figures against the sweep parameter:
  <csv>_<sweep>_gbps.png      effective bandwidth (ideal bytes / median time)
  <csv>_<sweep>_sectors.png   load and store sectors per request, measured and predicted
Custom: --x COLUMN --y COLUMN[,COLUMN...] plots any numeric columns, one line per variant,
size and block, into <csv>_<y>_vs_<x>.png. A time or a rate (time_ms_median, gbps,
payload_gbps, tflops) gets error bars from the fastest and slowest of the timed repeats
(time_ms_min, time_ms_max: run with --repeat 32 for the spread of 32 runs).
--speedup BASELINE: every variant's time ratio to BASELINE at each size, against size, into
<csv>_speedup_over_<BASELINE>.png. --xlabel names the x axis (lab 03's size is a matrix side).

  cudalab run 04-coalescing --variant offset --format csv --output offset.csv
  scripts/plot.py offset.csv                  -> offset_offset_gbps.png, offset_offset_sectors.png
  scripts/plot.py blocks.csv --x block --y gbps

Rows without a measurement (a run without a GPU leaves `gbps` and the `_measured` columns
empty) are left out of the measured series; the predicted series still plot.
Needs matplotlib (pip install matplotlib); renders with the Agg backend, no display needed.
"""

import argparse
import csv
import os
import sys
from collections import defaultdict


def fail(message):
    print(f"plot.py: {message}", file=sys.stderr)
    sys.exit(2)


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    if not rows:
        fail(f"{path} has no rows (is it a `cudalab run --format csv` file?)")
    return rows


def require(rows, columns, path):
    missing = [c for c in columns if c not in rows[0]]
    if missing:
        fail(f"{path} lacks column(s) {', '.join(missing)}; it has: {', '.join(rows[0].keys())}")


def series_key(row, by_size, by_block, x=None):
    label = row["variant"]
    if row.get("sweep") and x != "param":  # one line per sweep value (lab 03's tiles)
        label += f" {row['sweep']}={row.get('param')}"
    if by_size:
        label += f" n={row['size']}"
    if by_block:
        label += f" block={row['block']}"
    return label


# Columns that are a median time, or a quantity divided by it: their spread over the repeats.
TIME_COLUMNS = {"time_ms_median"}
RATE_COLUMNS = {"gbps", "payload_gbps", "tflops"}


def spread(row, y, value):
    """(low, high) of `y` over the timed repeats, or None when the row has no spread."""
    median, fastest, slowest = (number(row.get(c)) for c in
                                ("time_ms_median", "time_ms_min", "time_ms_max"))
    if not (median and fastest and slowest):
        return None
    if y in TIME_COLUMNS:
        return fastest, slowest
    if y in RATE_COLUMNS:  # a rate is inversely proportional to the time
        return value * median / slowest, value * median / fastest
    return None


def group(rows, x, y):
    """{label: [(x, y, spread), ...]} sorted by x, skipping rows where either value is empty."""
    by_size = x != "size" and len({r.get("size") for r in rows}) > 1
    by_block = x != "block" and len({r.get("block") for r in rows}) > 1
    lines = defaultdict(list)
    for r in rows:
        xv, yv = number(r.get(x)), number(r.get(y))
        if xv is not None and yv is not None:
            lines[series_key(r, by_size, by_block, x)].append((xv, yv, spread(r, y, yv)))
    return {k: sorted(v, key=lambda p: p[0]) for k, v in lines.items()}


def draw(ax, lines, style="o-", suffix=""):
    for label, points in sorted(lines.items()):
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        if all(p[2] for p in points):
            below = [y - p[2][0] for y, p in zip(ys, points)]
            above = [p[2][1] - y for y, p in zip(ys, points)]
            ax.errorbar(xs, ys, yerr=[below, above], fmt=style, label=label + suffix,
                        markersize=4, capsize=3)
        else:
            ax.plot(xs, ys, style, label=label + suffix, markersize=4)
    return bool(lines)


def new_figure(plt, title, xlabel, ylabel):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3)
    return fig, ax


def save(fig, ax, path, written):
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    written.append(path)


def plot_sweeps(plt, rows, stem, written):
    require(rows, ["variant", "sweep", "param", "gbps"], stem + ".csv")
    sweeps = sorted({r["sweep"] for r in rows if r.get("sweep")})
    if not sweeps:
        fail("no sweep rows in the CSV (run a sweep variant, e.g. --variant offset), or use --x/--y")
    for sweep in sweeps:
        sweep_rows = [r for r in rows if r.get("sweep") == sweep]
        size = sweep_rows[0].get("size", "?")

        fig, ax = new_figure(plt, f"{sweep} sweep: effective bandwidth (n = {size})", sweep, "GB/s")
        if not draw(ax, group(sweep_rows, "param", "gbps")):
            ax.text(0.5, 0.5, "no measured rows (run on a GPU)", ha="center", transform=ax.transAxes)
        ax.set_ylim(bottom=0)
        save(fig, ax, f"{stem}_{sweep}_gbps.png", written)
        plt.close(fig)

        fig, ax = new_figure(plt, f"{sweep} sweep: sectors per request", sweep, "sectors / request")
        for side in ("ld", "st"):
            measured = f"{side}_sectors_per_request_measured"
            predicted = f"{side}_sectors_per_request_predicted"
            if measured in sweep_rows[0]:
                draw(ax, group(sweep_rows, "param", measured), "o-", f" {side} measured")
            if predicted in sweep_rows[0]:
                draw(ax, group(sweep_rows, "param", predicted), "x--", f" {side} model")
        ax.set_ylim(bottom=0)
        save(fig, ax, f"{stem}_{sweep}_sectors.png", written)
        plt.close(fig)


def plot_custom(plt, rows, stem, x, ys, written, log=False, xlabel=None):
    require(rows, ["variant", x] + ys, stem + ".csv")
    for y in ys:
        fig, ax = new_figure(plt, f"{y} against {x}", xlabel or x, y)
        if not draw(ax, group(rows, x, y)):
            ax.text(0.5, 0.5, f"no rows with both {x} and {y}", ha="center", transform=ax.transAxes)
        if log:
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
        save(fig, ax, f"{stem}_{y}_vs_{x}.png", written)
        plt.close(fig)


def plot_speedup(plt, rows, stem, baseline, written, xlabel=None):
    """Speedup of every variant over `baseline` (time ratio at the same size), against size."""
    require(rows, ["variant", "size", "time_ms_median"], stem + ".csv")
    base = {r["size"]: number(r["time_ms_median"]) for r in rows if r["variant"] == baseline}
    if not base:
        fail(f"no rows of the baseline variant '{baseline}' in the CSV")
    speed = [dict(r, speedup=str(base[r["size"]] / number(r["time_ms_median"])))
             for r in rows if r["variant"] != baseline and r["size"] in base
             and number(r.get("time_ms_median"))]
    # --size is elements in most labs and a matrix side in the matrix products: --xlabel says which.
    fig, ax = new_figure(plt, f"speedup over {baseline}", xlabel or "size", f"{baseline} time / time")
    draw(ax, group(speed, "size", "speedup"))
    ax.axhline(1.0, color="grey", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    save(fig, ax, f"{stem}_speedup_over_{baseline}.png", written)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("csv", help="a `cudalab run --format csv` file")
    parser.add_argument("--x", help="column for the x axis (default: the sweep parameter)")
    parser.add_argument("--y", help="comma-separated columns for the y axis (with --x)")
    parser.add_argument("--log", action="store_true", help="log axes (with --x/--y)")
    parser.add_argument("--xlabel", help="the x axis's label (default: the column's name)")
    parser.add_argument("--speedup", metavar="BASELINE",
                        help="plot every variant's speedup over BASELINE against size")
    args = parser.parse_args()
    if bool(args.x) != bool(args.y):
        fail("--x and --y go together")

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail("needs matplotlib: pip install matplotlib")

    rows = read_rows(args.csv)
    stem = os.path.splitext(args.csv)[0]
    written = []
    if args.speedup:
        plot_speedup(plt, rows, stem, args.speedup, written, args.xlabel)
    if args.x:
        plot_custom(plt, rows, stem, args.x, [c for c in args.y.split(",") if c], written, args.log,
                    args.xlabel)
    elif not args.speedup:
        plot_sweeps(plt, rows, stem, written)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
