"""scripts/stream-timeline.sh [options] <report.sqlite> <variant[,variant...]>
The GPU timeline of one launch of each variant, from an Nsight Systems report exported to SQLite
(scripts/nsys.sh writes <report>.sqlite beside the .nsys-rep), as CSV: for each copy and kernel of
the variant's last launch, which stream ran it and when, in microseconds from the launch's first
operation. Lab 02 renders its streams table from this file.

A variant's operations are those whose CUDA call the host made inside its `kernel` phase range
(the NVTX ranges `cudalab run` opens: variant, then kernel). Its launches are told apart by what
each puts on its streams: one copy up, one kernel and one copy down on each stream the variant
uses, so the operations, in the order the host issued them, fall into launches of 3 per stream.
The last launch is taken: the warm-ups ran before it. (A variant that made new streams for each
launch would not be split this way: lab 02's pipelines make theirs once, before the first.)

Columns: variant, op (H2D, K or D2H), stream (0, 1, ... in the order the launch first uses them),
start_us, end_us, bytes (copies; empty for kernels).
Options:
  --output FILE   where the CSV goes (default: standard output)
  -h, --help      this text
Exit status: 0 written, 1 the report lacks what is needed (said in one line), 2 bad arguments."""
import os
import sqlite3
import sys
from pathlib import Path

from . import cli

PROG = "stream-timeline.sh"
COLUMNS = ["variant", "op", "stream", "start_us", "end_us", "bytes"]
# CUPTI's memcpy kinds, as nsys stores them (CUpti_ActivityMemcpyKind).
COPY_KINDS = {1: "H2D", 2: "D2H"}


def parse(argv):
    parser = cli.Parser(PROG, __doc__, fewest_words=2, most_words=2,
                        too_few="usage: scripts/stream-timeline.sh <report.sqlite> <variant[,variant...]>")
    parser.add_argument("--output")
    args = parser.parse(argv)
    args.report = Path(args.positional[0])
    args.variants = [v for v in args.positional[1].split(",") if v]
    if not args.variants:
        raise cli.bad("no variant named (see --help)")
    if len(set(args.variants)) != len(args.variants):
        raise cli.bad("a variant named twice (see --help)")
    if args.output and not os.access(Path(args.output).resolve().parent, os.W_OK):
        raise cli.bad(f"--output {args.output}: its folder is not writable"[:100])
    if not args.report.is_file():
        raise cli.bad(f"{args.report}: no such report (scripts/nsys.sh writes <report>.sqlite)")
    return args


def tables(db):
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def ranges(db, text):
    """(start, end) of every NVTX range named `text`, in time order."""
    names = "COALESCE(e.text, (SELECT value FROM StringIds WHERE id = e.textId))"
    return db.execute(f"SELECT e.start, e.end FROM NVTX_EVENTS e WHERE {names} = ? AND e.end IS NOT NULL "
                      "ORDER BY e.start", (text,)).fetchall()


# A CUDA call and what it ran share a correlation id within one process; nsys numbers a thread
# globalTid, its process's globalPid with the thread's 24 low bits cleared.
SAME_CALL = "r.correlationId = {0}.correlationId AND (r.globalTid & ~16777215) = {0}.globalPid"


def operations(db):
    """Every copy and kernel, with the time the host called for it: (call, op, stream, start, end,
    bytes), in the order of the calls."""
    found = []
    for row in db.execute("SELECT r.start, m.copyKind, m.streamId, m.start, m.end, m.bytes "
                          "FROM CUPTI_ACTIVITY_KIND_MEMCPY m JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                          f"ON {SAME_CALL.format('m')}"):
        if row[1] in COPY_KINDS:
            found.append((row[0], COPY_KINDS[row[1]], row[2], row[3], row[4], row[5]))
    for row in db.execute("SELECT r.start, k.streamId, k.start, k.end FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                          f"JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON {SAME_CALL.format('k')}"):
        found.append((row[0], "K", row[1], row[2], row[3], None))
    return sorted(found)


def last_launch(variant, ops):
    """The operations of the variant's last launch, each launch being a copy up, a kernel and a copy
    down on each of its streams."""
    streams = list(dict.fromkeys(op[2] for op in ops))
    per_launch = 3 * len(streams)
    if not ops or len(ops) % per_launch:
        raise cli.Refusal(f"{variant}: {len(ops)} copies and kernels on {len(streams)} stream(s), not "
                          f"launches of {per_launch} (up, kernel, down a stream)")
    launch = ops[-per_launch:]
    for stream in streams:
        kinds = sorted(op[1] for op in launch if op[2] == stream)
        if kinds != ["D2H", "H2D", "K"]:
            raise cli.Refusal(f"{variant}: its last launch put {', '.join(kinds) or 'nothing'} on a stream, "
                              "not a copy up, a kernel and a copy down")
    return launch


def timeline(db, variants):
    needed = {"NVTX_EVENTS", "StringIds", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_KERNEL",
              "CUPTI_ACTIVITY_KIND_RUNTIME"}
    missing = needed - tables(db)
    if missing:
        first = sorted(missing)[0]
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise cli.Refusal(f"the report has no {first}{more}: was it profiled with --trace=cuda,nvtx?")
    ops = operations(db)
    kernel_phases = ranges(db, "kernel")
    rows = []
    for variant in variants:
        spans = ranges(db, variant)
        if not spans:
            raise cli.Refusal(f"no NVTX range named {variant}: was it among the variants profiled?")
        start, end = spans[-1]
        phases = [(s, e) for s, e in kernel_phases if start <= s and e <= end]
        if len(phases) != 1:
            raise cli.Refusal(f"{variant}: {len(phases)} kernel phase ranges inside its last range, not 1")
        inside = [op for op in ops if phases[0][0] <= op[0] <= phases[0][1]]
        launch = last_launch(variant, inside)
        origin = min(op[3] for op in launch)
        numbers = {stream: n for n, stream in enumerate(dict.fromkeys(op[2] for op in launch))}
        for _, op, stream, begin, finish, size in sorted(launch, key=lambda o: o[3]):
            rows.append({"variant": variant, "op": op, "stream": numbers[stream],
                         "start_us": f"{(begin - origin) / 1000:.1f}", "end_us": f"{(finish - origin) / 1000:.1f}",
                         "bytes": "" if size is None else size})
    return rows


def run(argv):
    args = parse(argv)
    try:
        db = sqlite3.connect(f"file:{args.report}?mode=ro", uri=True)
        rows = timeline(db, args.variants)
    except sqlite3.Error as e:
        raise cli.Refusal(f"{args.report.name}: not a readable Nsight Systems SQLite export ({e})"[:100]) from None
    cli.write_csv(rows, COLUMNS, args.output)
    if args.output:
        print(f"{PROG}: wrote {args.output} ({len(rows)} operations)")
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
