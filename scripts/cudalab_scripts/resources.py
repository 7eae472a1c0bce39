"""python3 -m cudalab_scripts.resources FILE: writes the CTest resource spec of this machine's
GPUs to FILE and prints how many there are, for
  ctest -L gpu --resource-spec-file FILE -j <that many>
Every GPU test asks for "gpus:1" (cmake/cudalab_test_resources.cmake) and each card has one
slot, so a GPU test has its card to itself (its timings and counters see no other test) and the
tests spread over the cards. A card's id is its position among the cards CUDA sees: the entries
of CUDA_VISIBLE_DEVICES where it is set, else every card `nvidia-smi -L` lists;
cmake/on_allocated_gpu.sh turns the position back into the card.
Exit status: 0 written (0 cards is a spec too: the GPU tests then cannot start), 2 bad arguments.
"""
import json
import os
import subprocess
import sys

from . import cli

PROG = "resources"


def cards_listed(smi_output):
    return sum(1 for line in smi_output.splitlines() if line.startswith("GPU "))


def visible_cards(smi_output, visible):
    """How many cards CUDA sees: nvidia-smi ignores CUDA_VISIBLE_DEVICES, the runtime does not."""
    listed = cards_listed(smi_output)
    if visible is None:
        return listed
    return min(listed, len([entry for entry in visible.split(",") if entry.strip()]))


def spec(cards):
    return {"version": {"major": 1, "minor": 0},
            "local": [{"gpus": [{"id": str(i), "slots": 1} for i in range(cards)]}]}


def run(argv):
    if len(argv) != 1 or argv[0].startswith("-"):
        raise cli.bad("usage: python3 -m cudalab_scripts.resources FILE (see its docstring)")
    try:
        smi = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False).stdout
    except FileNotFoundError:
        smi = ""
    cards = visible_cards(smi, os.environ.get("CUDA_VISIBLE_DEVICES"))
    with open(argv[0], "w") as f:
        json.dump(spec(cards), f, indent=2)
    print(cards)
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
