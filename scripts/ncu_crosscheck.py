#!/usr/bin/env python3
"""Cross-check cudalab's in-process counters against Nsight Compute.

For each variant of a lab that launches kernels, run it once under
`ncu --nvtx --nvtx-include "cudalab@<lab>/<variant>/kernel/" --metrics <the lab's metrics>`
(counters off in cudalab) and compare the sums over the profiled kernels with what
`cudalab run --format csv` reports for the same variant and size. Global and local requests and
sectors, and warp and thread instructions and uniform and divergent branches (lab 05), are
deterministic: they must be equal. Exit 0 when all agree, 1 on any difference, 77 (skip)
when ncu or a GPU is missing.
"""
import argparse
import json
import csv
import io
import os
import re
import shutil
import subprocess
import sys

METRICS = {  # cudalab CSV column -> CUPTI/ncu metric
    "ld_requests_measured": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "ld_sectors_measured": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "st_requests_measured": "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "st_sectors_measured": "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    # Collected by the labs whose default set includes `divergence` (lab 05); compared where
    # cudalab's CSV has them.
    "instructions_measured": "smsp__inst_executed.sum",
    "thread_instructions_measured": "smsp__thread_inst_executed.sum",
    "uniform_branches_measured": "smsp__sass_branch_targets_threads_uniform.sum",
    "divergent_branches_measured": "smsp__sass_branch_targets_threads_divergent.sum",
    # Shared-memory instructions (not wavefronts) are deterministic too: compared where a lab
    # collects them.
    "shared_ld_inst_measured": "smsp__inst_executed_op_shared_ld.sum",
    "shared_st_inst_measured": "smsp__inst_executed_op_shared_st.sum",
    # Local-memory requests and sectors (lab 02's spill): exact like their global twins.
    "local_ld_requests_measured": "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
    "local_ld_sectors_measured": "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "local_st_requests_measured": "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
    "local_st_sectors_measured": "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
}
# Sweep parameters cross-checked (aligned, misaligned, small and large strides; tiles 8..32).
SWEEP_SAMPLE = {0, 1, 2, 8, 16, 31, 32}
# The size used where a lab accepts it; a lab with a smaller range runs at its own default.
PREFERRED_SIZE = 1 << 20


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def ncu_sums(ncu, tool, lab, variant, size, extra, log, metrics):
    cmd = [ncu, "--nvtx", "--nvtx-include", f"cudalab@{lab}/{variant}/kernel/",
           "--metrics", ",".join(metrics), "--csv", "--page", "raw",
           tool, "run", lab, "--variant", variant, "--size", size, "--no-counters",
           "--warmup", "0", "--repeat", "1"] + extra
    p = run(cmd)
    log.write("$ " + " ".join(cmd) + "\n" + p.stdout + p.stderr + "\n")
    if p.returncode != 0:
        raise RuntimeError(f"ncu failed for {variant} (exit {p.returncode})")
    # ncu prints its own ==PROF== lines and the tool's table on stdout; the CSV starts at the
    # first line beginning with "ID".
    lines = p.stdout.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
    if start is None:
        raise RuntimeError(f"no kernel profiled for {variant}: is the NVTX filter right?")
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))
    rows = [r for r in rows if r.get("ID", "").strip().isdigit()]  # drop the units row
    sums = {}
    for metric in metrics:
        sums[metric] = sum(float(r[metric].replace(",", "")) for r in rows)
    return sums, len(rows)


def lab_size(tool, lab):
    """1M when the lab takes it, else its default (`cudalab list --format json`)."""
    info = json.loads(run([tool, "list", "--format", "json", lab]).stdout)["labs"][0]
    if info["max_size"] is not None and info["max_size"] < PREFERRED_SIZE:
        return str(info["default_size"])
    return str(PREFERRED_SIZE)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build/release")
    ap.add_argument("--out", default="ncu-crosscheck")
    ap.add_argument("--lab", action="append", help="lab(s) to check (default: every lab)")
    ap.add_argument("--size", help="problem size (default: 1M where a lab accepts it, else "
                    "the lab's default)")
    args = ap.parse_args()
    tool = os.path.join(args.build, "tools", "cudalab", "cudalab")
    ncu = shutil.which("ncu")
    if not ncu:
        print("SKIP: ncu not found on PATH (Nsight Compute is needed for the cross-check)")
        return 77
    if run(["nvidia-smi", "-L"]).returncode != 0:
        print("SKIP: no CUDA device")
        return 77
    os.makedirs(args.out, exist_ok=True)
    labs = args.lab or [info["id"] for info in
                        json.loads(run([tool, "list", "--format", "json"]).stdout)["labs"]]
    bad = 0
    checked = 0
    with open(os.path.join(args.out, "ncu-crosscheck.log"), "w") as log:
        for lab in labs:
            size = args.size or lab_size(tool, lab)
            ours_csv = os.path.join(args.out, f"{lab}-cudalab.csv")
            p = run([tool, "run", lab, "--size", size, "--repeat", "1", "--format", "csv",
                     "--output", ours_csv])
            log.write(p.stdout + p.stderr)
            if p.returncode not in (0, 4):
                print(f"{lab}: cudalab run failed (exit {p.returncode}): {p.stderr.strip()}")
                bad += 1
                continue
            with open(ours_csv) as f:
                rows = list(csv.DictReader(f))
            # The metrics this lab collects: a column cudalab filled in for some counted row.
            columns = [c for c in METRICS
                       if any(r["counters"] == "ok" and r.get(c) for r in rows)]
            for row in rows:
                if row["counters"] != "ok":
                    continue  # library baselines have no kernels
                if row["sweep"] and int(row["param"]) not in SWEEP_SAMPLE:
                    continue  # each ncu run costs seconds: a sample of the sweep
                extra = ["--sweep", row["param"]] if row["sweep"] else []
                try:
                    sums, kernels = ncu_sums(ncu, tool, lab, row["variant"], size, extra,
                                             log, [METRICS[c] for c in columns])
                except RuntimeError as e:
                    print(f"{lab}/{row['variant']}: {e}")
                    bad += 1
                    continue
                for column in columns:
                    metric = METRICS[column]
                    ours = float(row[column]) if row[column] else None
                    theirs = sums[metric]
                    same = ours is not None and ours == theirs
                    checked += 1
                    bad += not same
                    print(f"{lab}/{row['variant']}{'@' + row['param'] if row['sweep'] else ''}: "
                          f"{metric} cudalab {ours} ncu {theirs:.0f} ({kernels} kernel(s)) "
                          f"{'equal' if same else 'DIFFERENT'}")
    print(f"ncu cross-check: {checked} comparisons, {bad} problem(s)")
    return 1 if bad or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
