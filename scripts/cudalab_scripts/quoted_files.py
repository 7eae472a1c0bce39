"""Blocks of a doc that quote a committed data file: each line as the file has it.

A fenced code block whose line before it ends with ":" and names a data file (a `.log`, `.txt`
or `.csv` under a lab's figures/ or under docs/data/, in backticks or as a link, the last one
named) quotes that file: every line of the block that is not blank must be a line of the file
(trailing blanks aside). Used by scripts/check-prose-figures.sh, whose figures leave code blocks
out: this is what holds those blocks to their data."""
import re
from pathlib import Path

FENCED = re.compile(r"^[ \t]*```[^\n]*\n(?P<body>.*?)^[ \t]*```[ \t]*$", re.M | re.S)
# A path in backticks or a link's target: `data/x.log`, [text](data/x.log).
NAMED = re.compile(r"`(?P<tick>[^`\s]+\.(?:log|txt|csv))`|\]\((?P<link>[^)\s]+\.(?:log|txt|csv))\)")


def data_file(root, doc, name):
    """The committed data file `name` points to from `doc` (relative to the doc or the root)."""
    for base in (root / Path(doc).parent, root):
        path = (base / name).resolve()
        if not path.is_file():
            continue
        inside = path.relative_to(root) if path.is_relative_to(root) else None
        if inside and (inside.parts[:2] == ("docs", "data") or
                       (inside.parts[0] == "labs" and "figures" in inside.parts)):
            return path
    return None


def quoted_blocks(root, doc, text):
    """(line, data file, body) of each block of `doc` that quotes a data file."""
    for m in FENCED.finditer(text):
        before = text[:m.start()].rstrip()
        line = before[before.rfind("\n") + 1:]
        if not line.endswith(":"):
            continue
        names = [n.group("tick") or n.group("link") for n in NAMED.finditer(line)]
        path = data_file(root, doc, names[-1]) if names else None
        if path:
            yield text.count("\n", 0, m.start()) + 2, path, m.group("body")


def check_quotes(root, doc, text):
    """One line a quoted line its data file does not hold."""
    problems = []
    for lineno, path, body in quoted_blocks(root, doc, text):
        lines = {line.rstrip() for line in path.read_text(errors="replace").split("\n")}
        for offset, line in enumerate(body.split("\n")):
            if line.strip() and line.rstrip() not in lines:
                problems.append(f"{doc}:{lineno + offset}: not a line of "
                                f"{path.relative_to(root)}: {line.strip()[:60]}")
    return problems
