#!/usr/bin/env python3
"""Fails when two modules (a .hpp and its .cpp/.cu count as one) of the given folders include
each other, directly: each layer's files form a tree a newcomer can read from the bottom up.

Usage: include_cycles.py ROOT FOLDER [FOLDER ...] (tests/ folders are left out).
"""
import os
import re
import sys


def module(path):
    return os.path.splitext(os.path.basename(path))[0]


def main(root, folders):
    includes = {}
    for folder in folders:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            if "/tests" in directory:
                continue
            for name in files:
                if not name.endswith((".cpp", ".hpp", ".cu", ".cuh")):
                    continue
                with open(os.path.join(directory, name), encoding="utf-8") as source:
                    for line in source:
                        found = re.match(r'#include "(.+)"', line)
                        if found:
                            includes.setdefault(module(name), set()).add(module(found.group(1)))
    cycles = sorted({tuple(sorted((a, b))) for a, bs in includes.items() for b in bs
                     if b != a and a in includes.get(b, ())})
    for a, b in cycles:
        print(f"include_cycles: {a} and {b} include each other")
    return 1 if cycles else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
