#!/usr/bin/env python3
"""The labs as `cudalab list --format json` gives them, for the scripts.

No script reads `cudalab list`'s table: they ask this one, so a new lab or variant needs no
script edit. Usage (TOOL is the cudalab binary):

  labs.py TOOL ids                        every lab's id, one a line
  labs.py TOOL id LAB                     the id of LAB ("04", "4", "coalescing" -> 04-coalescing)
  labs.py TOOL variants LAB [--all]       the variants `cudalab run LAB` runs (--all: exercise too)
  labs.py TOOL has-variant LAB VARIANT    exit 0 when LAB has VARIANT, else 1
  labs.py TOOL plan LAB [VARIANT,...]     one line a variant for scripts/sanitize.sh:
                                          "<lab id> <variant> <role> <sweep ends or -> <size>"
  labs.py TOOL size LAB PREFERRED         PREFERRED when LAB accepts it, else its default size

An unknown lab or variant is one line on stderr and exit 2.
"""
import json
import subprocess
import sys


def fail(message):
    print(f"labs.py: {message}", file=sys.stderr)
    sys.exit(2)


def labs_of(tool, lab=None):
    command = [tool, "list", "--format", "json"] + ([lab] if lab else [])
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        fail(f"unknown lab '{lab}' (cudalab list shows them): {last}" if lab else last)
    return json.loads(done.stdout)["labs"]


def one_lab(tool, lab):
    found = labs_of(tool, lab)
    if len(found) != 1:
        fail(f"'{lab}' names {len(found)} labs")
    return found[0]


def variant_names(lab, include_exercise=False):
    return [v["name"] for v in lab["variants"] if include_exercise or v["role"] != "exercise"]


def main(argv):
    if len(argv) < 2:
        fail("usage: labs.py TOOL <ids|id|variants|has-variant|plan|size> ... (see its header)")
    tool, command, rest = argv[0], argv[1], argv[2:]
    if command == "ids" and not rest:
        for lab in labs_of(tool):
            print(lab["id"])
    elif command == "id" and len(rest) == 1:
        print(one_lab(tool, rest[0])["id"])
    elif command == "variants" and len(rest) in (1, 2) and rest[1:] in ([], ["--all"]):
        print("\n".join(variant_names(one_lab(tool, rest[0]), rest[1:] == ["--all"])))
    elif command == "has-variant" and len(rest) == 2:
        sys.exit(0 if rest[1] in variant_names(one_lab(tool, rest[0]), True) else 1)
    elif command == "plan" and len(rest) in (1, 2):
        lab = one_lab(tool, rest[0])
        by_name = {v["name"]: v for v in lab["variants"]}
        wanted = [n for n in rest[1].split(",") if n] if len(rest) == 2 else variant_names(lab)
        unknown = [name for name in wanted if name not in by_name]
        if unknown:
            fail(f"unknown variant '{unknown[0]}' of {lab['id']} (cudalab list {lab['id']} shows them)")
        for name in wanted:
            v = by_name[name]
            sweep = v["sweep"]
            # A sweep over a range runs at its two ends, not at every value; one over a list of
            # built values (lab 03's tiles) at its default points ("-").
            ends = f"{sweep['min']},{sweep['max']}" if sweep and not sweep["only"] else "-"
            print(lab["id"], name, v["role"], ends, lab["sanitize_size"])
    elif command == "size" and len(rest) == 2:
        lab = one_lab(tool, rest[0])
        preferred = int(rest[1])
        takes_it = lab["max_size"] is None or lab["max_size"] >= preferred
        print(preferred if takes_it else lab["default_size"])
    else:
        fail(f"bad arguments: {' '.join(argv[1:])} (see the header of scripts/labs.py)")


if __name__ == "__main__":
    main(sys.argv[1:])
