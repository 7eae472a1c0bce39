"""scripts/capture-readme-runs.sh [BUILD] [--out DIR] [--only TEXT[,TEXT]] [--list]: on a GPU machine,
runs every command whose output the docs show verbatim, and writes each output and its provenance
for the renderer.

The commands are table_specs.RUNS, the same list scripts/render-tables.sh renders the tables
from: a new verbatim table needs no edit here. Run it from anywhere; BUILD (default
build/release, relative to the repository root) holds tools/cudalab/cudalab, and each command
runs in the repository root as `BUILD/tools/cudalab/cudalab ARGS`, one after another (they share
the GPU: timings taken side by side would disturb each other).

Each output, standard output then standard error as the tool printed them, goes to
DIR/<folder>/runs/<name>.txt, DIR mirroring the repository (copy DIR's tree over it), with a row
of DIR/<folder>/runs/provenance.csv: file, card and driver (nvidia-smi --query-gpu=name and
=driver_version, of the GPU the tool runs on: CUDA_DEVICE_ORDER=PCI_BUS_ID, so that it is
nvidia-smi's index 0 or the first of CUDA_VISIBLE_DEVICES; $NVIDIA_SMI names another
nvidia-smi), the date (YYYY-MM-DD, UTC) and the command as the learner types it. Rows of that
folder's provenance.csv in the repository for files not captured this time are kept. A command
that fails, or ends with another exit status than its line of RUNS gives (1 for `check` of an
untouched exercise), writes nothing; the others still run. DIR defaults to $OUT. --list prints
the commands and their files and runs nothing (no GPU needed). --only captures the outputs whose
file path holds one of the comma-separated TEXTs (--only check: every `check` output), so that
a change to one command's output does not retake the others' timings.

Estimated at two to three minutes on an H100, lab 05 at 2^28 floats the longest command (about
20 s); a command still running after 120 s is stopped and counts as failed.

Exit status: 0 every output captured; 1 a command failed (each is named) or nvidia-smi is
missing; 2 bad arguments; 77 no usable CUDA device."""
import csv
import datetime
import os
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from cudalab_scripts import cli, table_specs

PROG = "capture-readme-runs.sh"
WIDTH = 120
TIMEOUT_S = 120
PROVENANCE = ["file", "card", "driver", "date", "command"]


def parse(argv):
    parser = cli.Parser(PROG, __doc__, most_words=1)
    parser.add_argument("--out")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--only")
    args = parser.parse(argv)
    if args.only is not None:
        args.only = [text for text in args.only.split(",") if text]
        if not args.only:
            raise cli.bad("--only: name at least one part of a capture's file path")
        unmatched = [t for t in args.only if not any(t in r.path for r in table_specs.captures())]
        if unmatched:
            raise cli.bad(f"--only: no capture's file path holds {unmatched[0]!r}"[:WIDTH - len(PROG) - 2])
    given = args.positional[0] if args.positional else "build/release"
    build = (cli.ROOT / given).resolve()
    # The command as the learner types it: the build's path from the repository root.
    args.build_shown = str(build.relative_to(cli.ROOT)) if build.is_relative_to(cli.ROOT) else str(build)
    args.build = build
    if not args.list:
        out = args.out or os.environ.get("OUT")
        if not out:
            raise cli.bad("no output folder: set $OUT or pass --out DIR")
        args.out = cli.output_folder(Path(out).resolve(), "--out (or $OUT)")
    return args


def cut(line, indent="    "):
    """A line of someone else's output, under ours, within WIDTH columns."""
    line = indent + line.rstrip()
    return line if len(line) <= WIDTH else line[:WIDTH - 3] + "..."


def wrapped(command, indent="  "):
    """A command, whole, within WIDTH columns: what does not fit goes on under it, indented."""
    return textwrap.wrap(command, WIDTH, initial_indent=indent, subsequent_indent=indent + "    ",
                         break_long_words=True, break_on_hyphens=False)


def capture(run, tool, environment):
    """Runs one command: (its output, None) or (None, why it failed: lines to print)."""
    try:
        done = subprocess.run([tool] + shlex.split(run.args), cwd=cli.ROOT, env=environment,
                              capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return None, [f"    stopped after {TIMEOUT_S} s"]
    if done.returncode != run.status:
        tail = [cut(line, "      ") for line in done.stderr.strip().split("\n")[-5:] if line.strip()]
        said = ", the end of its standard error:" if tail else ""
        return None, [f"    exit {done.returncode}, not {run.status}{said}"] + tail
    return done.stdout + done.stderr, None


def write_provenance(out, repository, folder, rows):
    """DIR/<folder>/runs/provenance.csv: the repository's rows for files not captured now, then
    this capture's rows."""
    listing = Path(folder) / "runs" / "provenance.csv"
    kept = []
    if (repository / listing).is_file():
        with open(repository / listing, newline="") as f:
            kept = [r for r in csv.DictReader(f) if r.get("file") not in {row["file"] for row in rows}]
    with open(out / listing, "w", newline="") as f:
        writer = csv.DictWriter(f, PROVENANCE, extrasaction="ignore", lineterminator="\n")
        writer.writeheader()
        writer.writerows(kept + rows)


def run(argv):
    args = parse(argv)
    runs = table_specs.captures()
    if args.only:
        runs = [r for r in runs if any(text in r.path for text in args.only)]
    if args.list:
        for r in runs:
            print(r.path + (f" (expected to exit {r.status})" if r.status else ""))
            print("\n".join(wrapped(r.command(args.build_shown))))
        return 0
    tool = cli.cudalab(args.build)
    environment = dict(os.environ)
    environment.setdefault("CUDA_DEVICE_ORDER", "PCI_BUS_ID")
    cli.require_device(tool)
    card, driver = cli.card_and_driver(environment, WIDTH - len(PROG) - 2)
    print(f"{PROG}: {len(runs)} commands on {card} (driver {driver}), into {args.out}"[:WIDTH], flush=True)
    rows, failed, start = {}, [], time.monotonic()
    for number, r in enumerate(runs, 1):
        began = time.monotonic()
        output, why = capture(r, tool, environment)
        seconds = time.monotonic() - began
        print(f"  [{number}/{len(runs)}] {r.path}  {seconds:.1f} s  {'ok' if why is None else 'FAILED'}"[:WIDTH],
              flush=True)
        if why is not None:
            failed.append((r, why))
            continue
        target = args.out / r.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(output)
        date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        rows.setdefault(r.folder, []).append({"file": Path(r.path).name, "card": card, "driver": driver,
                                              "date": date, "command": r.command(args.build_shown)})
    for folder, folder_rows in rows.items():
        write_provenance(args.out, cli.ROOT, folder, folder_rows)
    total = time.monotonic() - start
    if not failed:
        print(f"{PROG}: {len(runs)} outputs captured in {total:.0f} s")
        return 0
    print(f"{PROG}: {len(failed)} of {len(runs)} commands failed ({total:.0f} s); their files were not written:")
    for r, why in failed:
        print("\n".join(wrapped(r.command(args.build_shown)) + why))
    return cli.FAILED


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
