"""Shared memory's two witnesses (docs/counters.md).

  shared_witness.py merge WORK CARD DRIVER DATE OUT.csv
      merges the runs of scripts/shared-witness.sh into one CSV and holds the SASS-level shared
      counts to the model; exit 1 on any difference.
  shared_witness.py table [--check DOC.md] CSV...
      renders the table of the data stage's excess over the SASS-level counts, one column pair a
      card, from the committed CSVs; with --check, fails unless DOC.md holds it between its
      shared-witness markers (CI runs this)."""
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


# The rows of the excess table: (lab, variant, param, size, what the row shows).
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
BEGIN = "<!-- shared-witness table: rendered by scripts/shared_witness.py table; do not edit -->"
END = "<!-- end of shared-witness table -->"


def excess(row, side):
    sass = float(row[f"shared_{side}_wavefronts_measured"])
    pipe = float(row[f"pipe_{side}_wavefronts"])
    return "0" if pipe == sass else f"{100 * (pipe - sass) / sass:+.2f} %"


def table(paths):
    cards = []
    for path in paths:
        rows = list(csv.DictReader(open(path, newline="")))
        by_key = {(r["lab"], r["variant"], r["param"], r["size"]): r for r in rows}
        cards.append((rows[0]["card"].replace("NVIDIA ", ""), rows[0]["date"], by_key))
    head = "| kernel | size |" + "".join(f" {c} loads | {c} stores |" for c, _, _ in cards)
    lines = [head, "|" + " --- |" * (2 + 2 * len(cards))]
    for lab, variant, param, size, what in EXCESS_ROWS:
        cells = []
        for _, _, by_key in cards:
            r = by_key[(lab, variant, param, size)]
            cells += [excess(r, "ld"), excess(r, "st")]
        lines.append(f"| {what} | {int(size):,} | " + " | ".join(cells) + " |")
    dates = ", ".join(f"{c} {d}" for c, d, _ in cards)
    lines.append("")
    lines.append(f"The data stage's wavefronts over the SASS-level ones ({dates}; "
                 + ", ".join(f"`{os.path.relpath(p)}`" for p in paths) + ").")
    return "\n".join(lines)


def check(doc, rendered):
    text = open(doc).read()
    if BEGIN not in text or END not in text:
        print(f"shared_witness.py: {doc} has no shared-witness markers")
        return 1
    held = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    if held != rendered.strip():
        print(f"shared_witness.py: the table in {doc} differs from its data; render it again:\n"
              f"{BEGIN}\n{rendered}\n{END}")
        return 1
    print(f"shared_witness.py: the table in {doc} equals its data")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) == 6 and args[0] == "merge":
        sys.exit(main(*args[1:]))
    if args and args[0] == "table":
        args = args[1:]
        doc = None
        if len(args) >= 2 and args[0] == "--check":
            doc, args = args[1], args[2:]
        if args:
            rendered = table(args)
            sys.exit(check(doc, rendered) if doc else print(rendered))
    sys.exit(__doc__)
