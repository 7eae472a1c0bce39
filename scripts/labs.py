#!/usr/bin/env python3
"""scripts/labs.py TOOL <ids|id|variants|has-variant|plan|size> ...: the labs as data for shell
scripts and tests; scripts/cudalab_scripts/labs.py has the commands and the logic."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cudalab_scripts import cli, labs  # noqa: E402

cli.main("labs.py", labs.command, sys.argv[1:])
