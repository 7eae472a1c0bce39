"""The labs as `cudalab list --format json` gives them, for the scripts.

No script reads `cudalab list`'s table: they ask this module, so a new lab or variant needs no
script edit. As a command (scripts/labs.py TOOL ...; TOOL is the cudalab binary):

  labs.py TOOL ids                        every lab's id, one a line
  labs.py TOOL id LAB                     the id of LAB ("04", "4", "coalescing" -> 04-coalescing)
  labs.py TOOL variants LAB [--all]       the variants `cudalab run LAB` runs (--all: exercise too)
  labs.py TOOL has-variant LAB VARIANT    exit 0 when LAB has VARIANT, else 1
  labs.py TOOL plan LAB [VARIANT,...]     one line a variant, as scripts/sanitize.sh plans it:
                                          "<lab id> <variant> <role> <sweep ends or -> <size>"
  labs.py TOOL size LAB PREFERRED         PREFERRED when LAB accepts it, else its default size

An unknown lab or variant is one line on stderr and exit 2.
"""
import json
import subprocess
import sys
from collections import namedtuple

from . import cli

# One variant as compute-sanitizer runs it: the sweep's two ends ("min,max") or None.
PlanEntry = namedtuple("PlanEntry", "lab variant role sweep size")


def labs_of(tool, lab=None):
    """Every lab, or the labs LAB names; an unknown lab is a refusal (exit 2)."""
    command = [tool, "list", "--format", "json"] + ([lab] if lab else [])
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if lab:
            raise cli.bad(f"unknown lab '{lab}' (cudalab list shows them)")
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise cli.Refusal(f"cudalab list --format json failed: {last}")
    return json.loads(done.stdout)["labs"]


def one_lab(tool, lab):
    found = labs_of(tool, lab)
    if len(found) != 1:
        raise cli.bad(f"'{lab}' names {len(found)} labs")
    return found[0]


def variant_names(lab, include_exercise=False):
    return [v["name"] for v in lab["variants"] if include_exercise or v["role"] != "exercise"]


def require_variant(lab, name):
    if name not in variant_names(lab, True):
        raise cli.bad(f"unknown variant '{name}' of {lab['id']} (cudalab list {lab['id']} shows them)")


def sweep_ends(variant):
    """A sweep over a range runs at its two ends, not at every value; one over a list of built
    values (lab 03's tiles) at its default points (None)."""
    sweep = variant["sweep"]
    return f"{sweep['min']},{sweep['max']}" if sweep and not sweep["only"] else None


def plan(lab, names=None):
    """The variants NAMES (default: those `cudalab run` runs) at the lab's sanitizer size."""
    by_name = {v["name"]: v for v in lab["variants"]}
    wanted = names if names is not None else variant_names(lab)
    for name in wanted:
        require_variant(lab, name)
    return [PlanEntry(lab["id"], name, by_name[name]["role"], sweep_ends(by_name[name]),
                      lab["sanitize_size"]) for name in wanted]


def size_for(lab, preferred):
    takes_it = lab["max_size"] is None or lab["max_size"] >= preferred
    return preferred if takes_it else lab["default_size"]


def command(argv):
    if len(argv) < 2:
        raise cli.bad("usage: labs.py TOOL <ids|id|variants|has-variant|plan|size> ... (see its header)")
    tool, name, rest = argv[0], argv[1], argv[2:]
    if name == "ids" and not rest:
        for lab in labs_of(tool):
            print(lab["id"])
    elif name == "id" and len(rest) == 1:
        print(one_lab(tool, rest[0])["id"])
    elif name == "variants" and len(rest) in (1, 2) and rest[1:] in ([], ["--all"]):
        print("\n".join(variant_names(one_lab(tool, rest[0]), rest[1:] == ["--all"])))
    elif name == "has-variant" and len(rest) == 2:
        return 0 if rest[1] in variant_names(one_lab(tool, rest[0]), True) else 1
    elif name == "plan" and len(rest) in (1, 2):
        names = [n for n in rest[1].split(",") if n] if len(rest) == 2 else None
        for entry in plan(one_lab(tool, rest[0]), names):
            print(entry.lab, entry.variant, entry.role, entry.sweep or "-", entry.size)
    elif name == "size" and len(rest) == 2 and rest[1].isdigit():
        print(size_for(one_lab(tool, rest[0]), int(rest[1])))
    else:
        raise cli.bad(f"bad arguments: {' '.join(argv[1:])} (see the header of scripts/labs.py)")
    return 0


if __name__ == "__main__":
    cli.main("labs.py", command, sys.argv[1:])
