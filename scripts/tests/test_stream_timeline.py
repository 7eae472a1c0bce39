"""scripts/stream-timeline.sh: one launch of each variant read from an Nsight Systems SQLite export
(a report built here with the tables and columns nsys writes), its refusals, and its CSV."""
import csv
import io
import sqlite3

from support import ScriptTest, run_script
from cudalab_scripts import cli, stream_timeline

MIB = 1 << 20


class report:
    """An Nsight Systems export in miniature: NVTX ranges, CUDA calls and what they ran."""

    def __init__(self, path):
        self.db = sqlite3.connect(path)
        self.db.executescript("""
            CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
            CREATE TABLE NVTX_EVENTS (start INT, end INT, text TEXT, textId INT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INT, end INT, correlationId INT, globalTid INT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INT, end INT, streamId INT, correlationId INT,
                                                     bytes INT, copyKind INT, globalPid INT);
            CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INT, end INT, streamId INT, correlationId INT,
                                                     globalPid INT);
        """)
        self.correlation = 0

    def range(self, text, start, end, registered=False):
        if registered:  # a registered string: the text lives in StringIds
            self.db.execute("INSERT INTO StringIds (value) VALUES (?)", (text,))
            (sid,) = self.db.execute("SELECT max(id) FROM StringIds").fetchone()
            self.db.execute("INSERT INTO NVTX_EVENTS VALUES (?, ?, NULL, ?)", (start, end, sid))
        else:
            self.db.execute("INSERT INTO NVTX_EVENTS VALUES (?, ?, ?, NULL)", (start, end, text))

    # nsys's numbering: a process's globalPid, its thread's globalTid with the thread in the low 24 bits.
    PID = 281484992708608

    def call(self, at, pid=PID):
        self.correlation += 1
        self.db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?)",
                        (at, at + 5, self.correlation, pid + 597))
        return self.correlation

    def copy(self, at, kind, stream, start, end, size, pid=PID):
        self.db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (start, end, stream, self.call(at, pid), size, kind, pid))

    def kernel(self, at, stream, start, end, pid=PID):
        self.db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, ?, ?, ?)",
                        (start, end, stream, self.call(at, pid), pid))

    def other_process_call_with(self, correlation, at):
        """A call of another process that shares a correlation id with this one's."""
        self.db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, ?, ?)",
                        (at, at + 5, correlation, (7 << 24) + 3))

    def launch(self, at, streams, origin):
        """One launch: on each stream a copy up, a kernel, a copy down, 100 us apart a stream."""
        for n, stream in enumerate(streams):
            t = origin + n * 100_000
            self.copy(at + 10 * n, 1, stream, t, t + 300_000, 16 * MIB)
            self.kernel(at + 10 * n + 1, stream, t + 300_000, t + 320_000)
            self.copy(at + 10 * n + 2, 2, stream, t + 330_000, t + 630_000, 16 * MIB)

    def close(self):
        self.db.commit()
        self.db.close()


class stream_timeline_test(ScriptTest):
    def write_report(self, launches=2, streams=(15, 16, 17, 18), registered=False):
        path = self.tmp / "r.sqlite"
        r = report(path)
        r.range("overlap_streams", 1_000, 90_000_000, registered)
        r.range("kernel", 2_000, 80_000_000, registered)
        r.range("h2d", 1_500, 1_900)  # another phase: its calls are not the kernel phase's
        r.copy(1_600, 1, 99, 0, 10, 64)
        for n in range(launches):
            r.launch(10_000 + 1_000 * n, streams, 5_000_000 * (n + 1))
        # Another process's call with the first copy's correlation id, inside the kernel phase:
        # matched on the id alone, it would add an operation.
        r.other_process_call_with(2, 3_000)
        r.close()
        return path

    def test_the_last_launch_on_its_streams_from_its_first_operation(self):
        path = self.write_report(registered=True)
        code, out, err = run_script("stream-timeline", [str(path), "overlap_streams"])
        self.assertEqual(code, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(len(rows), 12)
        self.assertEqual(list(rows[0]), stream_timeline.COLUMNS)
        first = rows[0]
        self.assertEqual((first["op"], first["stream"], first["start_us"], first["end_us"], first["bytes"]),
                         ("H2D", "0", "0.0", "300.0", str(16 * MIB)))
        kernels = [r for r in rows if r["op"] == "K"]
        self.assertEqual([k["stream"] for k in kernels], ["0", "1", "2", "3"])
        self.assertEqual(kernels[3]["start_us"], "600.0")
        self.assertEqual(kernels[3]["bytes"], "")
        self.assertEqual(max(float(r["end_us"]) for r in rows), 930.0)

    def test_the_csv_goes_where_output_says(self):
        path = self.write_report(launches=1, streams=(7,))
        target = self.tmp / "streams.csv"
        code, out, err = run_script("stream-timeline", ["--output", str(target), str(path), "overlap_streams"])
        self.assertEqual(code, 0, err)
        self.assertIn("3 operations", out)
        self.assertEqual(target.read_text().splitlines()[1], "overlap_streams,H2D,0,0.0,300.0,16777216")

    def test_what_does_not_fall_into_launches_is_refused(self):
        path = self.tmp / "r.sqlite"
        r = report(path)
        r.range("one_stream", 0, 10_000_000)
        r.range("kernel", 1, 9_000_000)
        r.launch(100, (3,), 1_000)
        r.kernel(500, 3, 2_000_000, 2_100_000)  # a fourth operation on the stream
        r.close()
        err = self.assert_refused("stream-timeline", [str(path), "one_stream"], status=cli.FAILED)
        self.assertIn("not launches of 3", err)

    def test_bad_arguments_and_missing_data_are_one_line(self):
        self.assert_refused("stream-timeline", [])
        self.assert_refused("stream-timeline", [str(self.tmp / "none.sqlite"), "one_stream"])
        path = self.write_report()
        self.assert_refused("stream-timeline", [str(path), "overlap_streams,overlap_streams"])
        self.assert_refused("stream-timeline", ["--output", str(self.tmp / "no" / "x.csv"), str(path), "a"])
        err = self.assert_refused("stream-timeline", [str(path), "one_stream"], status=cli.FAILED)
        self.assertIn("no NVTX range named one_stream", err)
        empty = self.tmp / "empty.sqlite"
        sqlite3.connect(empty).close()
        err = self.assert_refused("stream-timeline", [str(empty), "one_stream"], status=cli.FAILED)
        self.assertIn("the report has no", err)
        (self.tmp / "text.sqlite").write_text("not a database")
        err = self.assert_refused("stream-timeline", [str(self.tmp / "text.sqlite"), "x"], status=cli.FAILED)
        self.assertIn("not a readable", err)
