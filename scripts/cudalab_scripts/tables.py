"""scripts/render-tables.sh [--check] [--root DIR] [DOC.md ...]: every measured table of the docs,
rendered from its committed data.

A table is written between two markers, and only the renderer writes between them:

  <!-- table NAME: rendered from PATH[, PATH...] by scripts/render-tables.sh; do not edit -->
  ...
  <!-- end of table NAME -->

NAME picks a spec (scripts/cudalab_scripts/table_specs.py: which rows and columns of the data,
and how each number is written); the PATHs, relative to the repository, are its data files, in
the order the spec takes them. Each data file says where it came from: the columns card, driver,
date and command, or a row of the provenance.csv beside it (file, card, driver, date, command).

A table of the tool's own output, verbatim, names one captured text file,
<folder>/runs/<name>.txt: its spec is a line of table_specs.RUNS (the folder, the name and the
cudalab arguments), which scripts/capture-readme-runs.sh runs on a GPU to write the file and
its provenance.csv row. It renders as a sentence made from that row (the command in backticks,
the card, the driver and the date) and the file in a ``` fence.

Without --check the marked tables of the docs are rewritten in place. With --check nothing is
written: every table that differs from its data is printed as a unified diff and the exit status
is 1 (CI runs this). The docs are README.md, labs/*/README.md and docs/*.md unless named.
Exit 2, with one line, on a marker without its end, an unknown spec or a data file that is
missing or does not say where it came from."""
import csv
import difflib
import inspect
import re
import sys
from pathlib import Path

from cudalab_scripts import bench_log, cli, table_specs

BEGIN = re.compile(r"^<!-- table (?P<name>[a-z0-9-]+): rendered from (?P<paths>.+?) "
                   r"by scripts/render-tables\.sh; do not edit -->$")
END = "<!-- end of table {name} -->"
PROVENANCE = ("card", "driver", "date", "command")
WIDTH = 120  # every line the renderer prints, a diff's included


class Source:
    """One data file of a table: its path as the marker names it, and its rows (a CSV), its
    parsed output (a bench.sh log) or its text (a captured output, .txt)."""

    def __init__(self, root, name):
        self.name = name
        path = root / name
        if not path.is_file():
            raise cli.bad(f"{name} not found")
        self.provenance = provenance_of(root, path)
        if path.suffix == ".csv":
            with open(path, newline="") as f:
                self.rows = list(csv.DictReader(f))
            # A field with an unquoted comma shifts every column after it: refuse, do not render.
            ragged = [n for n, r in enumerate(self.rows, 2) if None in r or None in r.values()]
            if ragged:
                raise cli.bad(f"{name}: line {ragged[0]} has more or fewer fields than the header")
        elif path.suffix == ".log":
            self.log = bench_log.parse(path.read_text())
        elif path.suffix == ".txt":
            self.text = path.read_text()
        else:
            raise cli.bad(f"{name}: only .csv, .log (scripts/bench.sh's output) and .txt (a captured "
                          f"output) are read")
        if not all(self.provenance.get(k) for k in PROVENANCE):
            raise cli.bad(f"{name}: lacks card, driver, date, command")


def provenance_of(root, path):
    """card, driver, date and command of a data file: its own columns (first row), else its row of
    the provenance.csv in its folder."""
    if path.suffix == ".csv":
        with open(path, newline="") as f:
            first = next(csv.DictReader(f), {})
        if all(first.get(k) for k in PROVENANCE):
            return first
    listing = path.parent / "provenance.csv"
    if listing.is_file():
        with open(listing, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("file") == path.name:
                    return row
    return {}


class Table:
    """One marked table of a doc: where it is, what it holds, and what its data renders."""

    def __init__(self, doc, name, paths, first, last, held):
        self.doc, self.name, self.paths = doc, name, paths
        self.first, self.last, self.held = first, last, held  # held: the lines between the markers

    def rendered(self, root):
        spec = table_specs.SPECS.get(self.name)
        if spec is None:
            raise cli.bad(f"{self.doc}: table {self.name}: no such spec in table_specs.py")
        takes = len(inspect.signature(spec).parameters)
        if takes != len(self.paths):
            raise cli.bad(f"{self.doc}: table {self.name}: the spec takes {takes} data files, "
                          f"the marker names {len(self.paths)}")
        try:
            sources = [Source(root, p) for p in self.paths]
            return spec(*sources).rstrip("\n").split("\n")
        except cli.Refusal as refusal:
            # The data file's path names the trouble; the doc's would push the line past WIDTH.
            raise cli.bad(f"table {self.name}: {refusal}") from None


def tables_in(doc, lines):
    """The marked tables of one doc's lines, in order."""
    found, open_at = [], None
    for number, line in enumerate(lines):
        begin = BEGIN.match(line)
        if begin:
            if open_at:
                raise cli.bad(f"{doc}:{open_at[0] + 1}: table {open_at[1].group('name')} has no end marker")
            open_at = (number, begin)
        elif open_at and line == END.format(name=open_at[1].group("name")):
            first, match = open_at
            paths = [p.strip() for p in match.group("paths").split(",")]
            found.append(Table(doc, match.group("name"), paths, first, number, lines[first + 1:number]))
            open_at = None
    if open_at:
        raise cli.bad(f"{doc}:{open_at[0] + 1}: table {open_at[1].group('name')} has no end marker")
    return found


def default_docs(root):
    docs = [root / "README.md"] + sorted(root.glob("labs/*/README.md")) + sorted(root.glob("docs/*.md"))
    return [d for d in docs if d.is_file()]


def fitted(line):
    """A diff line cut to WIDTH columns; what is cut goes on under it, after its sign and 4 spaces."""
    pieces = []
    while len(line) > WIDTH:
        pieces.append(line[:WIDTH])
        line = line[0] + "    " + line[WIDTH:]
    return pieces + [line]


def diff(doc, written, rendered):
    """The doc's unified diff, its line numbers those of the doc, each line within WIDTH columns."""
    lines = difflib.unified_diff(written, rendered, f"a/{doc}", f"b/{doc}", lineterm="", n=1)
    return [piece for line in lines for piece in fitted(line)]


def run(argv):
    parser = cli.Parser("render-tables.sh", __doc__, most_words=1000)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--root", default=str(cli.ROOT))
    args = parser.parse(argv)
    root = Path(args.root).resolve()
    docs = [Path(d).resolve() for d in args.positional] or default_docs(root)
    count, changed = 0, []
    for path in docs:
        if not path.is_file():
            raise cli.bad(f"{path}: no such doc")
        doc = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        written = path.read_text().split("\n")
        lines = list(written)
        tables = tables_in(doc, lines)
        renders = [table.rendered(root) for table in tables]  # in order: the first trouble is named
        for table, rendered in reversed(list(zip(tables, renders))):  # from the end: line numbers hold
            count += 1
            if rendered != table.held:
                changed.insert(0, table)
                lines[table.first + 1:table.last] = rendered
        if lines == written:
            continue
        if args.check:
            print("\n".join(diff(doc, written, lines)))
        else:
            path.write_text("\n".join(lines))
    if args.check:
        if changed:
            print(f"render-tables.sh: {len(changed)} of {count} tables differ from their data "
                  f"(scripts/render-tables.sh renders them again):")
            for table in changed:
                print(f"  {table.doc}: {table.name}")
            return cli.FAILED
        print(f"render-tables.sh: {count} tables, each equal to its data")
        return 0
    print(f"render-tables.sh: {count} tables, {len(changed)} rewritten")
    for table in changed:
        print(f"  {table.doc}: {table.name}")
    return 0


if __name__ == "__main__":
    cli.main("render-tables.sh", run, sys.argv[1:])
