"""scripts/check-prose-figures.sh [--root DIR] [DOC.md ...]: every measured figure the docs quote in
their prose comes from committed data.

A figure is a number with a unit of measure or comparison: 1.39x, 79.57% or 96.4 %, 320.5 us, 3,471 GB/s,
31.26 TFLOP/s, 2.15 GB, 1.38-fold, 41 times (the units: x or ×, -fold, times, %, ns, us or µs, ms,
s, GB/s, GiB/s, TB/s, GFLOP/s, TFLOP/s, MB, GB, KiB, MiB, GiB; a whole number of bytes, 48 KiB or
50 MB, is a capacity, not a measurement). Numbers that share the unit of the figure after them
are figures of that unit too: 18 to 22 us is 18 us and 22 us; 475.3, 382.9 and 354.0 us three
figures in us; 41 and 6.0 times two (joined by to, and, or, or an en dash; a comma joins only
within such a list; a number after = is a parameter, n = 2048 to 4.58 TFLOP/s one figure, and so
is a whole number after at, 1.39x at 4096 and 1.41x two). Code blocks and the tables
scripts/render-tables.sh renders are left out: those are data already. A code block that quotes a
data file (the line before it ends with ":" and names the file: scripts/cudalab_scripts/
quoted_files.py) must hold only lines of that file.

Each figure of a lab's README must appear, as written, in a data file of that lab
(labs/NN-name/figures/**/*.csv, *.txt and *.log); a figure of README.md or docs/*.md, in any
lab's data or under docs/data/. Only its number is looked for, at its precision, so a ratio or
a round figure whose number the data hold by chance (a 1.26 of another column) passes: give each
figure the prose computes its derived row even then. A figure the prose computes from the data
(a ratio, a share, a sum) is listed in the derived.csv beside that data
(labs/NN-name/figures/derived.csv, docs/data/derived.csv), one row a figure:

  doc,figure,expression,where
  labs/03-shared-memory-tiling/README.md,1.39x,1530.2 / 1101.9,runs/sizes.txt: naive over tiled at 4096

The expression is arithmetic (+ - * / and parentheses) on numbers; each number of three or more
significant digits must itself appear in the data, and the expression must give the figure at
the figure's precision. A derived row that no longer matches, or that names a figure its doc no
longer quotes, fails too.

The figures not yet traced to their data are listed in docs/data/unsourced-figures.csv (doc,
figure): accepted and counted in the closing line. Each row must still be quoted; a row is
added to it only by a change that says why in its review, never to silence a new figure. A new
figure without data fails.

Exit 0 when every figure is accounted for, 1 with one line a figure when not (CI runs this), 2
with one line on bad arguments or a malformed derived.csv."""
import ast
import csv
import operator
import re
import sys
import textwrap
from pathlib import Path

from cudalab_scripts import cli, quoted_files

UNIT = (r"(?:x|×|-fold|\s?%|\stimes"
        r"|\s?(?:ns|us|µs|ms|s|GB/s|GiB/s|TB/s|GFLOP/s|TFLOP/s|MB|GB|KiB|MiB|GiB))")
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d+"
# Not inside a word, a decimal, a fraction (5T/8 times) or a power (2^23 and 733x).
FIGURE = re.compile(r"(?<![\w.,/^])(?P<number>" + NUMBER + r")(?P<unit>" + UNIT + r")(?![\w/])")
# A number that ends the text before a figure, joined to it by a range or a list's last link
# (18 to 22 us, 382.9 and 354.0 us, 41 and 6.0 times); not a parameter: n = 2048, or a whole
# number at 4096 (at 0.16 and 1.06 TFLOP/s is two figures).
JOINED = re.compile(r"(?<![\w.,/^])(?P<number>" + NUMBER + r")"
                    r"(?P<link>\s*(?:,\s*and|,\s*or|and|or|to|–)\s+|\s*–\s*)$")
LISTED = re.compile(r"(?<![\w.,/^])(?P<number>" + NUMBER + r"),\s+$")
PARAMETER = re.compile(r"=\s*$")
AT = re.compile(r"\bat\s*$")
CAPACITY = re.compile(r"\d+\s?(?:MB|GB|KiB|MiB|GiB)")
UNSOURCED = Path("docs/data/unsourced-figures.csv")
WIDTH = 120  # every line the check prints
FENCE = re.compile(r"^\s*```.*?^\s*```", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
RENDERED = re.compile(r"<!-- table [^>]*-->.*?<!-- end of table [^>]*-->", re.S)
DERIVED_COLUMNS = ["doc", "figure", "expression", "where"]


def default_docs(root):
    return [root / "README.md", *sorted(root.glob("docs/*.md")),
            *sorted(root.glob("labs/*/README.md"))]


def data_files(root, doc):
    """The data a doc's figures may come from: its lab's, or, for the top README and docs/, all."""
    parts = Path(doc).parts
    folders = ([root / parts[0] / parts[1] / "figures"] if parts[0] == "labs"
               else [*sorted(root.glob("labs/*/figures")), root / "docs" / "data"])
    files = []
    for folder in folders:
        files += [f for f in sorted(folder.rglob("*"))
                  if f.is_file() and f.suffix in (".csv", ".txt", ".log")
                  and f.name not in ("derived.csv", UNSOURCED.name)]
    return files


def derived_file(root, doc):
    parts = Path(doc).parts
    if parts[0] == "labs":
        return root / parts[0] / parts[1] / "figures" / "derived.csv"
    return root / "docs" / "data" / "derived.csv"


def appears(number, text):
    """Whether `number` (as written, or without its thousands' commas) is a number of the text at
    the same precision: 98.6 is 98.6 or 98.60, not 98.65, 1198.6 or the mantissa of 9.86e+01, and
    74 is not 74.6."""
    for form in {number, number.replace(",", "")}:
        zeros = "0*" if "." in form else ""
        if re.search(r"(?<![\d.])" + re.escape(form) + zeros + r"(?![\d]|\.\d|[eE][-+]?\d)", text):
            return True
    return False


def parameter(line, joined):
    """Whether the number `joined` found is a parameter (n = 2048, at 4096), not a figure."""
    before = line[:joined.start()]
    return bool(PARAMETER.search(before) or
                (AT.search(before) and "." not in joined.group("number")))


def prose_figures(text):
    """(line, figure, number) of each figure outside code blocks and rendered tables."""
    blanked = FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    blanked = RENDERED.sub(lambda m: "\n" * m.group(0).count("\n"), blanked)
    blanked = CODE_SPAN.sub("``", blanked)
    for lineno, line in enumerate(blanked.split("\n"), 1):
        for m in FIGURE.finditer(line):
            unit = m.group("unit")
            found = [(m.group(0), m.group("number"))]
            end, link = m.start(), JOINED
            while (joined := link.search(line, 0, end)) and not parameter(line, joined):
                found.insert(0, (joined.group("number") + unit, joined.group("number")))
                end, link = joined.start(), LISTED  # further left, only a list's commas
            for figure, number in found:
                if not CAPACITY.fullmatch(figure):
                    yield lineno, figure, number


OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
             ast.Div: operator.truediv}


def evaluate(expression):
    """The value of + - * / and parentheses on numbers (thousands' commas allowed), and the
    numbers it names; a refusal for anything else."""
    numbers = re.findall(NUMBER, expression)
    if not re.fullmatch(r"[\d.,\s+\-*/()]+", expression):
        raise cli.bad(f"derived expression '{expression}' is not arithmetic on decimal numbers")
    try:
        tree = ast.parse(re.sub(r"(?<=\d),(?=\d{3})", "", expression), mode="eval")
    except SyntaxError:
        raise cli.bad(f"derived expression '{expression}' is not arithmetic")

    def value(node):
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.BinOp) and type(node.op) in OPERATORS:
            return OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -value(node.operand)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return float(node.value)
        raise cli.bad(f"derived expression '{expression}' is not arithmetic")
    try:
        return value(tree), numbers
    except ZeroDivisionError:
        raise cli.bad(f"derived expression '{expression}' divides by zero")


def significant_digits(number):
    """1000 has one (a unit's scale, not a measurement), 0.0613 three, 1,524,505 seven."""
    plain = number.replace(",", "")
    digits = plain.replace(".", "").lstrip("0")
    return len(digits if "." in plain else digits.rstrip("0"))


def matches(figure_number, got):
    """Whether `got` written at the figure's precision is the figure's number."""
    plain = figure_number.replace(",", "")
    decimals = len(plain.split(".")[1]) if "." in plain else 0
    return abs(got - float(plain)) <= 0.5 * 10 ** -decimals + 1e-9


def read_derived(path, root):
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != DERIVED_COLUMNS:
            raise cli.bad(f"{path.relative_to(root)}: the columns are {','.join(DERIVED_COLUMNS)}")
        return list(reader)


def read_unsourced(root):
    """{doc: {figure}} of the figures not yet traced to their data."""
    path = root / UNSOURCED
    if not path.is_file():
        return {}
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != ["doc", "figure"]:
            raise cli.bad(f"{UNSOURCED}: the columns are doc,figure")
        listed = {}
        for row in reader:
            listed.setdefault(row["doc"], set()).add(row["figure"])
        return listed


def check_doc(root, doc, unsourced):
    """The problems of one doc, one line each, and how many of its figures are still unsourced."""
    text = (root / doc).read_text()
    data = "\n".join(f.read_text(errors="replace") for f in data_files(root, doc))
    derived_path = derived_file(root, doc)
    rows = [r for r in read_derived(derived_path, root) if r["doc"] == doc]
    derived = {}
    problems = []
    where = derived_path.relative_to(root)
    for row in read_derived(derived_path, root):
        if not (root / row["doc"]).is_file():
            problems.append(f"{where}: no doc {row['doc']}")
    for row in rows:
        got, numbers = evaluate(row["expression"])
        missing = [n for n in numbers if significant_digits(n) >= 3 and not appears(n, data)]
        if missing:
            problems.append(f"{where}: {row['figure']} uses {', '.join(missing)}, in no data "
                            f"file of {doc}")
        number = FIGURE.fullmatch(row["figure"].strip())
        if not number:
            problems.append(f"{where}: '{row['figure']}' is not a figure (a number and a unit)")
            continue
        if not matches(number.group("number"), got):
            problems.append(f"{where}: {row['figure']} of {doc} is {row['expression']} = "
                            f"{got:.6g}, not {number.group('number')}")
        derived[row["figure"].strip()] = row
    problems += quoted_files.check_quotes(root, doc, text)
    quoted, pending = set(), 0
    for lineno, figure, number in prose_figures(text):
        quoted.add(figure)
        if appears(number, data) or figure in derived:
            continue
        if figure in unsourced:
            pending += 1
            continue
        problems.append(f"{doc}:{lineno}: {figure} is in no data file and has no row in {where}")
    for figure in [*derived, *unsourced]:
        if figure not in quoted:
            problems.append(f"{where if figure in derived else UNSOURCED}: {figure} is no longer "
                            f"quoted by {doc}")
    return problems, pending


def run(argv):
    parser = cli.Parser("check-prose-figures.sh", __doc__, most_words=1000)
    parser.add_argument("--root", default=str(cli.ROOT))
    args = parser.parse(argv)
    root = Path(args.root).resolve()
    docs = [Path(d).resolve() for d in args.positional] or default_docs(root)
    unsourced = read_unsourced(root)
    problems, count, pending = [], 0, 0
    for path in docs:
        if not path.is_file():
            raise cli.bad(f"{path}: no such doc")
        doc = str(path.relative_to(root))
        count += sum(1 for _ in prose_figures(path.read_text()))
        found, waiting = check_doc(root, doc, unsourced.get(doc, set()))
        problems += found
        pending += waiting
    if problems:
        print(f"check-prose-figures.sh: {len(problems)} problem(s) with figures and their data:")
        for problem in problems:  # each within WIDTH columns, its continuation indented
            print("\n".join(textwrap.wrap(problem, WIDTH, initial_indent="  ",
                                           subsequent_indent="      ", break_long_words=False,
                                           break_on_hyphens=False)))
        return cli.FAILED
    print(f"check-prose-figures.sh: {count} figures in {len(docs)} docs: {count - pending} from "
          f"data, {pending} still to trace ({UNSOURCED})")
    return 0


if __name__ == "__main__":
    cli.main("check-prose-figures.sh", run, sys.argv[1:])
