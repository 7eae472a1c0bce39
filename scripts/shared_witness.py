"""Shared memory's two witnesses (docs/counters.md).

  shared_witness.py merge WORK CARD DRIVER DATE OUT.csv
      merges the runs of scripts/shared-witness.sh into one CSV and holds the SASS-level shared
      counts to the model; exit 1 on any difference.

The table of the data stage's excess over the SASS-level counts in docs/counters.md is rendered
from those CSVs by scripts/render-tables.sh, spec shared-witness-excess
(scripts/cudalab_scripts/table_specs.py), with every other measured table."""
import csv
import os
import sys

COUNTS = ["shared_ld_wavefronts", "shared_st_wavefronts", "shared_ld_conflicts", "shared_st_conflicts"]
PIPE = ["pipe_ld_wavefronts", "pipe_st_wavefronts", "pipe_ld_conflicts", "pipe_st_conflicts"]
FIELDS = (["card", "driver", "date", "command", "lab", "variant", "param", "size", "block"]
          + [f"{m}_{side}" for m in COUNTS for side in ("measured", "predicted")] + PIPE)


def main(work, card, driver, date, output):
    commands = dict(line.rstrip("\n").split("|", 1) for line in open(os.path.join(work, "commands")))
    rows, compared, differences = [], 0, []
    for name, command in commands.items():
        for r in csv.DictReader(open(os.path.join(work, name + ".csv"), newline="")):
            if not r.get("shared_ld_wavefronts_measured"):
                continue  # a CPU baseline: nothing ran on the GPU
            row = {"card": card, "driver": driver, "date": date, "command": command}
            row.update({k: r.get(k, "") for k in FIELDS if k not in row})
            rows.append(row)
            for m in COUNTS:
                measured, predicted = r[m + "_measured"], r[m + "_predicted"]
                if measured == "" or predicted == "":
                    continue
                compared += 1
                if float(measured) != float(predicted):
                    differences.append(f"{r['variant']} {r['param']} n={r['size']} {m}: "
                                       f"measured {measured}, model {predicted}")
    with open(output, "w", newline="") as f:
        writer = csv.DictWriter(f, FIELDS)
        writer.writeheader()
        writer.writerows(rows)
    print(f"shared-witness: {card}: {len(rows)} rows, {compared} SASS-level counts against the "
          f"model, {len(differences)} different; wrote {output}")
    for d in differences:
        print("  " + d)
    return 1 if differences or not compared else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 6 and args[0] == "merge":
        sys.exit(main(*args[1:]))
    sys.exit(__doc__)
