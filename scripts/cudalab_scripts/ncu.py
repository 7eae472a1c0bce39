"""scripts/ncu.sh [options] <lab> <variant> [metrics]
Profiles one variant's kernels with Nsight Compute, selected by the kit's NVTX ranges:
  ncu --nvtx --nvtx-include "cudalab@<lab>/<variant>/" --metrics <CUPTI names> \\
      cudalab run <lab> --variant <variant> --no-counters --warmup 0 --repeat 1
so ncu sees exactly one launch of each kernel of the variant (the filter matches every kernel
beneath the lab/variant range). [metrics] is a set (memory, shared, pipe, classes, dram, ...) or a
comma list of short or CUPTI names, resolved by `cudalab metrics --set`; default: memory.
Writes <out>/<lab>_<variant>.ncu-rep (open it in ncu-ui), <out>/<lab>_<variant>.csv (one row a
kernel, one column a metric) and <out>/<lab>_<variant>.log.
Options:
  --build DIR   the build to profile (default build/release; not the debug build: -G changes counts)
  --out DIR     where the reports go (default <build>/profiles/ncu)
  --size N      problem size for cudalab run (default: the lab's)
  --sweep V     the sweep value for a sweep variant (offset, stride)
  -h, --help    this text
ncu is $NCU, else ncu on PATH, else /opt/nvidia/nsight-compute/*/ncu.
Exit status: 0 done, 1 failed, 2 bad arguments, 77 skipped (no ncu or no GPU).
"""
import csv
import subprocess
import sys
from pathlib import Path

from . import cli, labs

PROG = "ncu.sh"


def parse(argv):
    parser = cli.Parser(PROG, __doc__, fewest_words=2, most_words=3,
                        too_few="usage: scripts/ncu.sh <lab> <variant> [metrics]")
    parser.add_build_and_out()
    parser.add_argument("--size")
    parser.add_argument("--sweep")
    args = parser.parse(argv)
    args.lab, args.variant = args.positional[:2]
    args.metrics = args.positional[2] if len(args.positional) == 3 else "memory"
    args.out = Path(args.out or Path(args.build) / "profiles" / "ncu")
    return args


def cupti_names(tool, metrics):
    """The CUPTI names of a set or list, from `cudalab metrics --set` (short name, CUPTI name)."""
    done = subprocess.run([tool, "metrics", "--set", metrics], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = (done.stdout + done.stderr).strip().rsplit("cudalab: ", 1)[-1]
        raise cli.bad(f"bad metrics '{metrics}': {said}")
    names = [fields[1] for fields in map(str.split, done.stdout.splitlines()) if len(fields) >= 2]
    if not names:
        raise cli.bad(f"metrics '{metrics}' resolved to no CUPTI names")
    return names


def kernel_rows(path):
    """The kernels of `ncu --import --csv --page raw`: the rows whose ID is a number (the row
    under the header holds the units)."""
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if (r.get("ID") or "").strip().isdigit()]


def metric_lines(rows, names):
    """Each kernel, then one line a metric: what ncu.sh prints after the profile."""
    lines = []
    for row in rows:
        lines.append(f"  {row.get('Kernel Name', '?')[:70]}")
        lines.extend(f"    {n:62s} {row[n]}" for n in names if n in row)
    return lines


def run(argv):
    args = parse(argv)
    tool = cli.cudalab(args.build)
    lab = labs.one_lab(tool, args.lab)
    labs.require_variant(lab, args.variant)
    names = cupti_names(tool, args.metrics)
    ncu = cli.find_program("ncu", "NCU", ["/opt/nvidia/nsight-compute/*/ncu"])
    if not ncu:
        raise cli.skip("Nsight Compute (ncu) not found on PATH, in $NCU or under /opt/nvidia/nsight-compute")
    cli.require_device(tool)

    run_args = ["run", lab["id"], "--variant", args.variant, "--no-counters", "--warmup", "0", "--repeat", "1"]
    run_args += (["--size", args.size] if args.size else []) + (["--sweep", args.sweep] if args.sweep else [])
    cli.output_folder(args.out)
    base = args.out / f"{lab['id']}_{args.variant}"
    log, report, table = (Path(f"{base}{suffix}") for suffix in (".log", ".ncu-rep", ".csv"))
    nvtx = f"cudalab@{lab['id']}/{args.variant}/"
    # The tool's name, not its path: a deep install path would push the line past 120 columns.
    print(f"{PROG}: {Path(ncu).name} --nvtx --nvtx-include \"{nvtx}\" --metrics {args.metrics}")
    print(f"{PROG}:   ... cudalab {' '.join(run_args)}", flush=True)
    # --clock-control none: leave the GPU's clocks alone (counts do not depend on them).
    with open(log, "w") as f:
        status = subprocess.run([ncu, "--nvtx", "--nvtx-include", nvtx, "--metrics", ",".join(names),
                                 "--clock-control", "none", "--force-overwrite", "--export", str(base),
                                 tool] + run_args, stdout=f, stderr=subprocess.STDOUT, check=False).returncode
    said = log.read_text(errors="replace")
    if "ERR_NVGPUCTRPERM" in said:
        raise cli.Refusal("ERR_NVGPUCTRPERM: the counters are for admin users; run as root, or see "
                          "https://developer.nvidia.com/ERR_NVGPUCTRPERM")
    if status != 0:
        raise cli.Refusal(f"ncu (or cudalab run under it) exited with {status}: see {log}")
    if "No kernels were profiled" in said or not report.exists():
        raise cli.Refusal(f"ncu profiled no kernel inside the NVTX range {nvtx} (a variant without "
                          f"kernels, such as a library baseline?): see {log}")
    with open(table, "w") as out, open(log, "a") as f:
        if subprocess.run([ncu, "--import", str(report), "--csv", "--page", "raw"], stdout=out, stderr=f,
                          check=False).returncode != 0:
            raise cli.Refusal(f"ncu --import of {report} failed: see {log}")
    rows = kernel_rows(table)
    print(f"{PROG}: {len(rows)} kernel launch(es) profiled")
    print(f"{PROG}: wrote {table}")
    print(f"{PROG}: wrote {report} (open it in ncu-ui)")
    print("\n".join(metric_lines(rows, names)))
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
