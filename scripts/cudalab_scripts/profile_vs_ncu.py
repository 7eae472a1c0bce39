"""scripts/profile-vs-ncu.sh [--build DIR] [--out DIR] -- PROGRAM [ARGS...]
Runs PROGRAM three times: under `cudalab profile --no-time --no-dram --format json` with each
witness (the memory tracer, which needs no counter permission, and CUPTI's SASS-level counters)
and under Nsight Compute (ncu --metrics <the global load and store requests and sectors> --csv
--page raw), then compares each witness's counts with ncu's kernel by kernel, each summed over its
launches. The counts are deterministic: any difference fails. Prints each kernel's four counts and
the wall time each run took on the program (the cost of each witness).
Writes <out>/profile-<witness>.json, <out>/ncu.csv and <out>/profile-vs-ncu.log (default out:
<build>/profiles/profile-vs-ncu).
Options:
  --build DIR   the build whose cudalab runs (default build/release)
  --out DIR     where the reports go
  -h, --help    this text
ncu is $NCU, else ncu on PATH, else /opt/nvidia/nsight-compute/*/ncu.
Exit status: 0 every count equal, 1 a difference or a tool failed, 2 bad arguments, 77 skipped
(no ncu or no GPU).
"""
import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

from . import cli

PROG = "profile-vs-ncu.sh"
WITNESSES = ("tracer", "counters")
# profile's JSON key -> the ncu metric that counts the same thing.
METRICS = {
    "ld_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "ld_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "st_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
}


def parse(argv):
    if "--" not in argv:
        raise cli.bad("usage: scripts/profile-vs-ncu.sh [options] -- PROGRAM [ARGS...] (see --help)")
    at = argv.index("--")
    own, program = argv[:at], argv[at + 1:]
    parser = cli.Parser(PROG, __doc__)
    parser.add_build_and_out()
    args = parser.parse(own)
    if not program:
        raise cli.bad("no PROGRAM after -- (see --help)")
    args.program = program
    args.out = Path(args.out or Path(args.build) / "profiles" / "profile-vs-ncu")
    return args


def base_name(kernel):
    """A kernel's function name, whichever way a tool spells it: ncu may print the bare name or
    the demangled signature, profile prints the signature."""
    name = kernel.split("(", 1)[0].strip()
    return name[len("void "):] if name.startswith("void ") else name


def profile_counts(report):
    """{kernel: {key: count}} from `cudalab profile --format json`."""
    return {base_name(k["kernel"]): {key: int(k[key]) for key in METRICS} for k in report["kernels"]}


def ncu_counts(text):
    """{kernel: {key: count}} from ncu's raw CSV (its launches summed). ncu writes the program's
    own output and its ==PROF== lines before the CSV, which starts at the line that begins "ID";
    the row under the header holds the units."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        return {}
    sums = {}
    for row in csv.DictReader(io.StringIO("\n".join(lines[start:]))):
        if not (row.get("ID") or "").strip().isdigit():
            continue
        kernel = sums.setdefault(base_name(row["Kernel Name"]), dict.fromkeys(METRICS, 0))
        for key, metric in METRICS.items():
            kernel[key] += int(float(row[metric].replace(",", "")))
    return sums


def differences(ours, theirs):
    """One line a disagreement: a kernel one side lacks, or a count that differs."""
    lines = [f"{k}: ncu profiled it, profile did not" for k in sorted(set(theirs) - set(ours))]
    lines += [f"{k}: profile reported it, ncu did not" for k in sorted(set(ours) - set(theirs))]
    for kernel in sorted(set(ours) & set(theirs)):
        lines += [f"{kernel}: {key} profile {ours[kernel][key]} ncu {theirs[kernel][key]}"
                  for key in METRICS if ours[kernel][key] != theirs[kernel][key]]
    return lines


def timed(command, log):
    """command's exit status, stdout and wall seconds; its stderr goes to log."""
    started = time.monotonic()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=log, text=True, check=False)
    return done.returncode, done.stdout, time.monotonic() - started


def run(argv):
    args = parse(argv)
    tool = cli.cudalab(args.build)
    ncu = cli.find_program("ncu", "NCU", ["/opt/nvidia/nsight-compute/*/ncu"])
    if not ncu:
        raise cli.skip("Nsight Compute (ncu) not found on PATH, in $NCU or under /opt/nvidia/nsight-compute")
    cli.output_folder(args.out)
    cli.require_device(tool)
    witnesses = {}  # witness -> (its counts, its wall seconds)
    with open(args.out / "profile-vs-ncu.log", "w") as log:
        for witness in WITNESSES:
            report = args.out / f"profile-{witness}.json"
            status, _, seconds = timed(
                # --no-time --no-dram: the witness's own cost, as ncu's here is its counting alone.
                [tool, "profile", "--witness", witness, "--no-time", "--no-dram", "--format", "json",
                 "--output", str(report), "--"]
                + args.program, log)
            if status != 0:
                raise cli.Refusal(f"cudalab profile --witness {witness} exited with {status}: "
                                  f"see {args.out}/profile-vs-ncu.log")
            measured = json.loads(report.read_text())
            if measured["witness"] != witness:  # counters refused: the tracer measured
                raise cli.Refusal(f"cudalab profile measured with {measured['witness']}, not {witness}: "
                                  f"see {args.out}/profile-vs-ncu.log")
            witnesses[witness] = (profile_counts(measured), seconds)
        # --clock-control none: leave the clocks alone (counts do not depend on them).
        status, said, ncu_seconds = timed(
            [ncu, "--metrics", ",".join(METRICS.values()), "--clock-control", "none", "--csv", "--page", "raw"]
            + args.program, log)
    (args.out / "ncu.csv").write_text(said)
    if "ERR_NVGPUCTRPERM" in said:
        raise cli.Refusal("ncu: ERR_NVGPUCTRPERM: the counters are for admin users; run as root, or see "
                          "https://developer.nvidia.com/ERR_NVGPUCTRPERM")
    if status != 0:
        raise cli.Refusal(f"ncu (or the program under it) exited with {status}: see {args.out}/ncu.csv")
    theirs = ncu_counts(said)
    for kernel in sorted(theirs):
        counts = theirs[kernel]
        # The name on a line of its own: a demangled signature can be long (120 columns).
        print(f"{PROG}: {kernel[:100]}")
        print(f"{PROG}:   " + " ".join(f"{key} {counts[key]}" for key in METRICS))
    times = ", ".join(f"profile --witness {w} {seconds:.1f} s" for w, (_, seconds) in witnesses.items())
    print(f"{PROG}: wall time on the program: {times}, ncu {ncu_seconds:.1f} s")
    wrong = [f"{w}: {line}" for w, (ours, _) in witnesses.items() for line in differences(ours, theirs)]
    for line in wrong:
        print(f"{PROG}: DIFFERENT {line}")
    if wrong or not theirs:
        raise cli.Refusal(f"{len(wrong)} difference(s)" if wrong else "no kernel in either report")
    print(f"{PROG}: {len(theirs)} kernel(s), every global count of each witness equal to ncu's")
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
