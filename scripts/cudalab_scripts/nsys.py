"""scripts/nsys.sh [options] <lab> [variant[,variant...]]
Profiles `cudalab run <lab> --no-counters` under Nsight Systems (CUDA and NVTX traces only, no
CPU sampling) and writes the NVTX range summary and the kernel summary as CSV:
  <out>/<name>.nsys-rep                the timeline: open it in the Nsight Systems GUI
  <out>/<name>.sqlite                  its SQLite export (scripts/stream-timeline.sh reads it)
  <out>/<name>_nvtx_sum.csv            every cudalab range: lab, variant, alloc/h2d/kernel/d2h/verify
  <out>/<name>_cuda_gpu_kern_sum.csv   every kernel, with its launches and times
<name> is the lab id, or <lab>_<variant> when variants are given.
Options:
  --build DIR   the build whose tool is profiled (default build/release)
  --out DIR     where the reports go (default <build>/profiles/nsys)
  --size N      problem size for cudalab run (default: the lab's)
  --repeat N    timed launches per variant (default 5; a timeline needs few)
  -h, --help    this text
nsys is $NSYS, else nsys on PATH, else the copy inside Nsight Compute
(/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys). Where .nsys-libs/ exists
(scripts/fetch-nsys-libs.sh), its libdw and libelf go on LD_LIBRARY_PATH for the report import.
Exit status: 0 done, 1 failed, 2 bad arguments, 77 skipped (no nsys or no GPU; the reason
is printed).
"""
import os
import subprocess
import sys
from pathlib import Path

from . import cli, labs

PROG = "nsys.sh"
NSYS_IN_NCU = "/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys"
REPORTS = ("nvtx_sum", "cuda_gpu_kern_sum")


def parse(argv):
    parser = cli.Parser(PROG, __doc__, fewest_words=1, most_words=2,
                        too_few="which lab? usage: scripts/nsys.sh <lab> [variant]")
    parser.add_build_and_out()
    parser.add_argument("--size")
    parser.add_argument("--repeat", default="5")
    args = parser.parse(argv)
    args.lab = args.positional[0]
    args.variant = args.positional[1] if len(args.positional) == 2 else ""
    args.repeat = cli.whole_number("--repeat", args.repeat)
    args.out = Path(args.out or Path(args.build) / "profiles" / "nsys")
    return args


def report_name(lab_id, variant):
    return f"{lab_id}_{variant.replace(',', '_')}" if variant else lab_id


def profile_command(nsys, tool, report, run_args):
    return [nsys, "profile", "--trace=cuda,nvtx", "--sample=none", "--cpuctxsw=none",
            "--force-overwrite=true", "--output", str(report), tool] + run_args


def stats_command(nsys, report):
    return [nsys, "stats", "--report", ",".join(REPORTS), "--format", "csv", "--force-export=true",
            "--output", str(report), f"{report}.nsys-rep"]


def with_nsys_libs(environment):
    """libdw and libelf from .nsys-libs/ (scripts/fetch-nsys-libs.sh), where they were fetched."""
    environment = dict(environment)
    for lib in ("usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu"):
        folder = cli.ROOT / ".nsys-libs" / lib
        if folder.is_dir():
            old = environment.get("LD_LIBRARY_PATH")
            environment["LD_LIBRARY_PATH"] = f"{folder}:{old}" if old else str(folder)
    return environment


def run(argv):
    args = parse(argv)
    tool = cli.cudalab(args.build, "scripts/setup.sh, or cmake --preset release && cmake --build --preset release")
    lab_id = labs.one_lab(tool, args.lab)["id"]
    nsys = cli.find_program("nsys", "NSYS", [NSYS_IN_NCU])
    if not nsys:
        raise cli.skip(f"Nsight Systems (nsys) not found on PATH, in $NSYS or inside Nsight Compute 2025.3.1")
    cli.require_device(tool)

    environment = with_nsys_libs(os.environ)
    run_args = ["run", lab_id, "--no-counters", "--repeat", str(args.repeat)]
    run_args += (["--variant", args.variant] if args.variant else []) + (["--size", args.size] if args.size else [])
    cli.output_folder(args.out)
    report = args.out / report_name(lab_id, args.variant)
    for stale in [Path(f"{report}{s}") for s in (".nsys-rep", ".qdstrm", ".sqlite")] + \
            list(args.out.glob(f"{report.name}_*.csv")):
        stale.unlink(missing_ok=True)

    print(f"{PROG}: {Path(nsys).name} profile ... cudalab {' '.join(run_args)}", flush=True)
    profile_log = Path(f"{report}.profile.log")
    with open(profile_log, "w") as f:
        status = subprocess.run(profile_command(nsys, tool, report, run_args), stdout=f,
                                stderr=subprocess.STDOUT, env=environment, check=False).returncode
    print(profile_log.read_text(errors="replace"), end="", flush=True)
    if status != 0:
        raise cli.Refusal(f"nsys profile (or cudalab run under it) exited with {status}: see {profile_log}")
    if not Path(f"{report}.nsys-rep").exists():
        if Path(f"{report}.qdstrm").exists():
            raise cli.Refusal(f"nsys wrote {report}.qdstrm but no .nsys-rep: its importer failed (libdw or "
                              "libelf missing? run scripts/fetch-nsys-libs.sh and carry .nsys-libs)")
        raise cli.Refusal(f"nsys wrote no report at {report}.nsys-rep: see {profile_log}")

    stats_log = Path(f"{report}.stats.log")
    with open(stats_log, "w") as f:
        status = subprocess.run(stats_command(nsys, report), stdout=f, stderr=subprocess.STDOUT,
                                env=environment, check=False).returncode
    if status != 0:
        last = (stats_log.read_text(errors="replace").strip().splitlines() or ["no output"])[-1]
        raise cli.Refusal(f"nsys stats failed: {last} (full log: {stats_log})")
    for kind in REPORTS:
        table = Path(f"{report}_{kind}.csv")
        if not table.exists() or table.stat().st_size == 0:
            raise cli.Refusal(f"nsys stats wrote no {table}: see {stats_log}")
        print(f"{PROG}: wrote {table}")
    print(f"{PROG}: wrote {report}.nsys-rep (open it in Nsight Systems: nsys-ui)")
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
