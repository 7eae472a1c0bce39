"""scripts/barrier-probes.sh [--build DIR] [--output FILE | --check FILE] [--timeout S]
What each barrier misuse of lab 07's table does on this GPU: every form that
cudalab_barrier_probes knows (its `list`), run once alone and once under compute-sanitizer's
synccheck, each run stopped after S seconds (default 20, at most 600: the forms that finish take
under one).

Writes CSV (default: standard output), one row a form:
  form, misuse              the probe's name for it and what it does
  without_tool              "to the end" (the launch and cudaDeviceSynchronize succeeded),
                            "hangs" (still running after S seconds: killed) or
                            "fails: <the CUDA error's name and words>"
  synccheck                 the first barrier error synccheck reports (its headline, "=========" cut),
                            "nothing" (0 errors and the program ran to the end) or "hangs"
                            (only where the form also hangs alone: a run that ends alone but
                            not under synccheck within S seconds is refused, being maybe slow)
  card, driver, date, command  where and how it was measured (nvidia-smi, UTC date)
Lab 07's README renders its table from labs/07-debugging/figures/barrier-probes.csv, written by
this script on a GPU machine. --check FILE measures again and compares each form's two outcomes
with FILE's (the GPU test that keeps the README's table true): a line for each that differs.

--build DIR is the build whose labs/07-debugging/cudalab_barrier_probes runs (default
build/release). compute-sanitizer is $COMPUTE_SANITIZER, else on PATH, else /usr/local/cuda/bin.
Exit status: 0 written (or equal to FILE); 1 the probe is not built, a probe or the sanitizer
failed in another way, nvidia-smi is missing, or --check found a difference (each said in one
line); 2 bad arguments; 77 skipped (no GPU, no compute-sanitizer)."""
import csv
import datetime
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from . import cli

PROG = "barrier-probes.sh"
COLUMNS = ["form", "misuse", "without_tool", "synccheck", "card", "driver", "date", "command"]
COMMAND = "scripts/barrier-probes.sh"
WIDTH = 120
MOST_SECONDS = 600  # a run's limit; the probes take under a second


def parse(argv):
    parser = cli.Parser(PROG, __doc__)
    parser.add_argument("--build", default=str(cli.ROOT / "build" / "release"))
    parser.add_argument("--output")
    parser.add_argument("--check")
    parser.add_argument("--timeout", default="20")
    args = parser.parse(argv)
    args.timeout = cli.whole_number("--timeout", args.timeout)
    if args.timeout > MOST_SECONDS:  # refused before any run: a form may take this long twice
        raise cli.bad(f"--timeout {args.timeout}: at most {MOST_SECONDS} seconds")
    if args.output and args.check:
        raise cli.bad("--output and --check: one or the other (see --help)")
    if args.check and not Path(args.check).is_file():
        raise cli.bad(f"--check {args.check}: no such file")
    if args.output and not os.access(Path(args.output).resolve().parent, os.W_OK):
        raise cli.bad(f"--output {args.output}: its folder is not writable"[:WIDTH - len(PROG) - 2])
    return args


def differences(measured, committed):
    """A line for each form whose outcomes differ from the committed rows', or that one side lacks."""
    expected = {r["form"]: r for r in committed}
    lines = []
    for row in measured:
        was = expected.pop(row["form"], None)
        if was is None:
            lines.append(f"{row['form']}: measured, not in the committed table")
            continue
        for column in ("without_tool", "synccheck"):
            if row[column] != was[column]:
                lines.append(f"{row['form']}: {column} {row[column]!r}, the table says {was[column]!r}")
    lines += [f"{form}: in the committed table, not measured" for form in expected]
    return lines


def run_for(command, seconds):
    """(exit status, output) of `command`, or (None, output so far) when it ran past `seconds`:
    then its whole process group is killed (a hung kernel's process and the sanitizer's)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=seconds)
        return process.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        return None, output


def without_tool(status, output):
    if status is None:
        return "hangs"
    if status == 0 and "ran to the end" in output:
        return "to the end"
    if status == 1:
        last = (output.strip().splitlines() or ["no output"])[-1]
        # The CUDA error and its words; not where the probe checked it (a path of this machine).
        error = re.search(r"cuda[A-Z]\w+ \([^)]*\)", last)
        return f"fails: {error.group(0) if error else last}"
    raise cli.Refusal(f"the probe exited with {status}: {(output.strip().splitlines() or ['no output'])[-1]}"
                      [:WIDTH - len(PROG) - 2])


def first_report(status, output):
    """synccheck's first error headline, "nothing" or "hangs"; a refusal for anything else (the
    sanitizer's own failure is no report)."""
    if status is None:
        return "hangs"
    summary = re.search(r"^========= ERROR SUMMARY: (\d+) errors?", output, re.M)
    if summary and int(summary.group(1)) == 0 and "ran to the end" in output:
        return "nothing"
    if summary and int(summary.group(1)) > 0:
        for line in output.splitlines():
            headline = re.match(r"========= (Barrier error detected\..*)", line)
            if headline:
                return headline.group(1).strip()
    last = (output.strip().splitlines() or ["no output"])[-1]
    raise cli.Refusal(f"synccheck (exit {status}) gave no barrier report and no clean end: {last}"
                      [:WIDTH - len(PROG) - 2])


def run(argv):
    args = parse(argv)
    probe = Path(args.build) / "labs" / "07-debugging" / "cudalab_barrier_probes"
    if not os.access(probe, os.X_OK):
        raise cli.Refusal(f"no cudalab_barrier_probes in {args.build}/labs/07-debugging: build first "
                          "(scripts/setup.sh)"[:WIDTH - len(PROG) - 2])
    cli.require_device(cli.cudalab(args.build))
    sanitizer = cli.find_program("compute-sanitizer", "COMPUTE_SANITIZER", ["/usr/local/cuda/bin/compute-sanitizer"])
    if not sanitizer:
        raise cli.skip("compute-sanitizer not found on PATH, in $COMPUTE_SANITIZER or /usr/local/cuda/bin")
    listed = subprocess.run([str(probe), "list"], capture_output=True, text=True, check=False)
    forms = [line.split("\t", 1) for line in listed.stdout.splitlines() if "\t" in line]
    if listed.returncode != 0 or not forms:
        raise cli.Refusal(f"{probe} list named no form")
    card, driver = cli.card_and_driver(os.environ, WIDTH - len(PROG) - 2)
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    rows = []
    for name, misuse in forms:
        alone = without_tool(*run_for([str(probe), name], args.timeout))
        checked = first_report(*run_for([sanitizer, "--tool", "synccheck", str(probe), name], args.timeout))
        if checked == "hangs" and alone != "hangs":
            # A form that ends alone may only be slow under the sanitizer: no outcome to record.
            raise cli.Refusal(f"{name}: still running under synccheck after {args.timeout} s though it ends "
                              "alone: raise --timeout"[:WIDTH - len(PROG) - 2])
        print(f"{PROG}: {name}: {alone}; synccheck: {checked}"[:WIDTH], file=sys.stderr, flush=True)
        rows.append({"form": name, "misuse": misuse, "without_tool": alone, "synccheck": checked, "card": card,
                     "driver": driver, "date": date, "command": COMMAND})
    if args.check:
        with open(args.check, newline="") as f:
            found = differences(rows, list(csv.DictReader(f)))
        for line in found:
            print(f"{PROG}: {line}"[:WIDTH], file=sys.stderr)
        if found:
            raise cli.Refusal(f"{len(found)} outcome(s) differ from {args.check} ({card})")
        print(f"{PROG}: every form as {args.check} says ({card})")
        return 0
    cli.write_csv(rows, COLUMNS, args.output)
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
