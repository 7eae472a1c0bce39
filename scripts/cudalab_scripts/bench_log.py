"""scripts/bench.sh's printed output read back as data, so that a doc's table can be rendered
from the committed log of a run (docs/data/bench-*/).

What is read: each `cudalab run` table (a "device:" line, a size line, a header, one row a
variant; columns are separated by two spaces or more, as the tool aligns them), and the lines
bench.sh writes itself (the particle speedup, the transpose summary, the witness's cost)."""
import re

COLUMNS = re.compile(r"\s{2,}")
PARTICLES = re.compile(r"particles_aos .*: SoA (?P<speedup>[0-9.]+)x faster$")
TRANSPOSE = re.compile(r"padded is (?P<padded>[0-9.]+)x faster than shared_tile; "
                       r"tile_rows reaches (?P<tile_rows>[0-9.]+)% of copy$")
WITNESS_COST = re.compile(r"^\s*lab (?P<lab>\d+), (?P<what>[a-zA-Z ]+?)\s*: (?P<seconds>[0-9.]+) s \(runs")
SECTION = re.compile(r"^== (?P<number>\d+)\. ")
PREDICTION = re.compile(r"^  run (?P<command>.+?)\s+(?P<seconds>[0-9.]+) s(?: \(runs [0-9. ]+\))?$")


class Log:
    """device: the card as the tool names it; runs: {elements: {variant: {column: text}}};
    particle_speedup, padded_speedup, tile_rows_pct_of_copy: bench.sh's ratios as printed;
    witness_cost: {(lab, what): seconds as printed}; predictions: [(command, seconds as printed)],
    section 4's prediction-only runs in their order."""

    def __init__(self):
        self.device = None
        self.runs = {}
        self.particle_speedup = self.padded_speedup = self.tile_rows_pct_of_copy = None
        self.witness_cost = {}
        self.predictions = []


def parse(text):
    log, header, rows, elements, section = Log(), None, None, None, None
    for line in text.splitlines():
        heading = SECTION.match(line)
        if heading:
            section = heading["number"]
        prediction = PREDICTION.match(line) if section == "4" else None
        if prediction:
            log.predictions.append((prediction["command"], prediction["seconds"]))
            continue
        device = re.match(r"device: (.+?) \(sm_\d+\)", line)
        size = re.match(r"([0-9,]+) \S", line)
        if device:
            log.device, header = device.group(1), None
        elif size and header is None and not line.startswith("=="):
            elements = int(size.group(1).replace(",", ""))
        elif line.startswith("variant ") and elements is not None:
            header, rows = COLUMNS.split(line.strip()), {}
            log.runs[elements] = rows
        elif header and COLUMNS.search(line.strip()) and len(COLUMNS.split(line.strip())) == len(header):
            cells = COLUMNS.split(line.strip())
            rows[cells[0]] = dict(zip(header, cells))
        else:
            header, elements = None, None
            read_summary(log, line)
    return log


def read_summary(log, line):
    for pattern, store in ((PARTICLES, lambda m: setattr(log, "particle_speedup", m["speedup"])),
                           (TRANSPOSE, lambda m: (setattr(log, "padded_speedup", m["padded"]),
                                                  setattr(log, "tile_rows_pct_of_copy", m["tile_rows"]))),
                           (WITNESS_COST, lambda m: log.witness_cost.update(
                               {(m["lab"], m["what"]): m["seconds"]}))):
        match = pattern.search(line)
        if match:
            store(match)
