"""scripts/sanitize.sh [options] [<lab> [variant[,variant...] [tool]]]
Runs compute-sanitizer's memcheck, racecheck, synccheck and initcheck over
  cudalab run <lab> --variant <v> --no-counters --warmup 0 --repeat 1 --size <N>
one process per variant and tool, writes each log to <out>/<lab>/<variant>.<tool>.log, and
summarises what each tool found: each kind of error, how often, and the first report's kernel,
source line, thread and address.
  With a lab, variants and a tool (memcheck, racecheck, synccheck, initcheck or leak, which is
    memcheck --leak-check full): that one tool, and the findings are reported, not asserted
    (scripts/sanitize.sh 07-debugging oob_write memcheck), unless --expect-* says otherwise.
  With a lab and --expect-clean (the default): no tool may report an error on any variant.
  With --expect-errors: every variant must draw at least one error from the tools run, so
    name the tool that sees the bug (--tools racecheck for a race, memcheck for a bad access).
  With no lab: every variant of every lab (exercises aside) must be clean, except `buggy` ones,
    whose findings are reported, not asserted: not every planted bug is a sanitizer's to see
    (lab 01's no_bounds_guard writes into a canary band inside its allocation, on purpose).
Options:
  --build DIR    the build to run (default build/release)
  --out DIR      where the logs go (default <build>/sanitize); <out>/summary.txt has the table
  --tools LIST   comma list of memcheck, racecheck, synccheck, initcheck, leak (default: the
                 first four)
  --size N       problem size (default: the size a lab names for sanitizers, `cudalab list`,
                 else 1000003: no multiple of any block, so tail blocks run; else its default)
  --jobs N       runs at a time on the GPU (default 4)
  --expect-clean / --expect-errors   what the named variants must show (see above)
  -h, --help     this text
compute-sanitizer is $COMPUTE_SANITIZER, else on PATH, else /usr/local/cuda/bin.
Exit status: 0 as expected, 1 not as expected or a run failed, 2 bad arguments, 77 skipped
(no compute-sanitizer, no GPU, or the sanitizer does not support this device).
"""
import re
import subprocess
import sys
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import cli, labs

PROG = "sanitize.sh"
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck", "leak")
DEFAULT_TOOLS = "memcheck,racecheck,synccheck,initcheck"
# compute-sanitizer exits with this when it found errors, so a crash (any other status) is
# never taken for a finding.
ERROR_EXIT = 86

# What one tool made of one variant: kind is clean, errors, unsupported or failed; count is the
# number of errors, or the exit status of a failed run (None when unknown).
Result = namedtuple("Result", "kind count")
# One variant to run: what it must show (clean, errors or report), its sweep ends, its size.
Job = namedtuple("Job", "lab variant expectation sweep size")


def parse(argv):
    parser = cli.Parser(PROG, __doc__, most_words=3)
    parser.add_build_and_out()
    parser.add_argument("--tools", default=DEFAULT_TOOLS)
    parser.add_argument("--size")
    parser.add_argument("--jobs", default="4")
    parser.add_argument("--expect-clean", dest="expect", action="store_const", const="clean")
    parser.add_argument("--expect-errors", dest="expect", action="store_const", const="errors")
    args = parser.parse(argv)
    if len(args.positional) == 3:
        args.tools = args.positional[2]
        args.expect = args.expect or "report"
    args.jobs = cli.whole_number("--jobs", args.jobs)
    args.tool_list = args.tools.split(",") if args.tools else []
    if not args.tool_list:
        raise cli.bad("--tools is empty")
    for tool in args.tool_list:
        if tool not in TOOLS:
            raise cli.bad(f"unknown tool '{tool}' ({', '.join(TOOLS)})")
    if not args.positional and args.expect == "errors":
        raise cli.bad("--expect-errors needs a lab and its buggy variants")
    args.out = Path(args.out or Path(args.build) / "sanitize")
    return args


def expectation(role, lab_named, expect):
    """What a variant must show: as asked; else, over every lab, buggy ones are reported only."""
    if expect:
        return expect
    return "report" if role == "buggy" and not lab_named else "clean"


def make_plan(lab_list, args):
    """lab_list: the labs as `cudalab list --format json` gives them (the named one, or all)."""
    lab_named = bool(args.positional)
    names = None
    if len(args.positional) > 1:
        names = [n for n in args.positional[1].split(",") if n]
    jobs = []
    for lab in lab_list:
        for entry in labs.plan(lab, names):
            jobs.append(Job(entry.lab, entry.variant, expectation(entry.role, lab_named, args.expect),
                            entry.sweep, args.size or str(entry.size)))
    return jobs


def sanitizer_command(sanitizer, tool, job, which):
    run = [tool, "run", job.lab, "--variant", job.variant, "--no-counters", "--warmup", "0",
           "--repeat", "1", "--size", job.size] + (["--sweep", job.sweep] if job.sweep else [])
    tool_args = ["--tool", "memcheck", "--leak-check", "full"] if which == "leak" else ["--tool", which]
    return [sanitizer] + tool_args + ["--error-exitcode", str(ERROR_EXIT), "--print-limit", "20"] + run


# "ERROR SUMMARY: 3 errors"; racecheck: "RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)".
SUMMARY = re.compile(r"ERROR SUMMARY: ([0-9]+) error|\(([0-9]+) errors?,")


def read_log(text, status):
    """The result of one run from its log (compute-sanitizer's output) and exit status."""
    counts = [int(a or b) for a, b in SUMMARY.findall(text)]
    errors = max(counts) if counts else None
    if "Device not supported" in text:
        return Result("unsupported", None)
    if errors:
        return Result("errors", errors)
    if status == 0 and errors is not None:
        return Result("clean", 0)
    return Result("failed", status)


def log_path(out, job, which):
    return Path(out) / job.lab / f"{job.variant}.{which}.log"


def run_one(sanitizer, tool, out, job, which):
    log = log_path(out, job, which)
    with open(log, "w") as f:
        status = subprocess.run(sanitizer_command(sanitizer, tool, job, which), stdout=f,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, check=False).returncode
    return read_log(log.read_text(errors="replace"), status)


CELL = 13


def cell(result):
    return {"clean": "clean", "unsupported": "unsupported", "failed": "RUN FAILED"}.get(
        result.kind, f"{result.count} error{'s' if result.count != 1 else ''}")


def verdict(job, results):
    """(the verdict's words, whether it is as expected)."""
    if any(r.kind == "failed" for r in results):
        return "RUN FAILED", False
    found = any(r.kind == "errors" for r in results)
    if job.expectation == "clean":
        return ("clean as expected", True) if not found else ("UNEXPECTED ERRORS", False)
    if job.expectation == "errors":
        return ("errors as expected", True) if found else ("NO ERROR FOUND (expected some)", False)
    return "buggy: reported, not asserted", True


def summary_lines(jobs, tools, results, summarise=None):
    """The table: a heading a lab, a row a variant (one cell a tool), then a failed run's log
    and, from lab 07's report parser, what each tool that found errors reported."""
    lines, lab = [], None
    for job in jobs:
        if job.lab != lab:
            lab = job.lab
            lines.append(f"{lab} (size {job.size})")
            lines.append(f"  {'variant':<24}" + "".join(f" {t:<{CELL}}" for t in tools) + " verdict")
        row = [results[job, t] for t in tools]
        words, _ = verdict(job, row)
        lines.append(f"  {job.variant:<24}" + "".join(f" {cell(r):<{CELL}}" for r in row) + f" {words}")
        for t, r in zip(tools, row):
            if r.kind == "failed":
                exit_status = "?" if r.count is None else r.count
                lines.append(f"    {t}: exit {exit_status}, see {job.lab}/{job.variant}.{t}.log")
            elif r.kind == "errors" and summarise:
                lines.append(f"    {t}:")
                lines.extend(summarise(job, t))
    return lines


def run(argv):
    args = parse(argv)
    tool = cli.cudalab(args.build)
    lab_list = [labs.one_lab(tool, args.positional[0])] if args.positional else labs.labs_of(tool)
    jobs = make_plan(lab_list, args)
    if not jobs:
        raise cli.Refusal("nothing to run")
    sanitizer = cli.find_program("compute-sanitizer", "COMPUTE_SANITIZER",
                                 ["/usr/local/cuda/bin/compute-sanitizer"])
    if not sanitizer:
        raise cli.skip("compute-sanitizer not found on PATH, in $COMPUTE_SANITIZER or /usr/local/cuda/bin")
    cli.require_device(tool)

    size = args.size or "1000003 or each lab's own"
    print(f"{PROG}: {len(jobs)} variant(s) x {len(args.tool_list)} tool(s), size {size}, logs in {args.out}",
          flush=True)
    for job in jobs:
        (args.out / job.lab).mkdir(parents=True, exist_ok=True)
    work = [(job, t) for job in jobs for t in args.tool_list]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        done = pool.map(lambda w: run_one(sanitizer, tool, args.out, *w), work)
        results = dict(zip(work, done))

    parser = Path(args.build) / "labs" / "07-debugging" / "cudalab_sanitizer_summary"

    def summarise(job, which):
        done = subprocess.run([str(parser), str(log_path(args.out, job, which))],
                              capture_output=True, text=True, check=False)
        return done.stdout.splitlines()

    lines = summary_lines(jobs, args.tool_list, results, summarise if parser.exists() else None)
    summary = args.out / "summary.txt"
    summary.write_text("".join(line + "\n" for line in lines))
    print("\n".join(lines))
    if any(r.kind == "unsupported" for r in results.values()):
        raise cli.skip("compute-sanitizer does not support this device (see the logs)")
    as_expected = all(verdict(job, [results[job, t] for t in args.tool_list])[1] for job in jobs)
    print(f"{PROG}: {'all as expected' if as_expected else 'NOT as expected'} (summary: {summary})")
    return 0 if as_expected else 1


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
