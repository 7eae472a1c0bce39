"""What every script shares: one-line refusals, skips, finding a tool, and the device check."""
import argparse
import csv
import glob
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Exit statuses every script keeps: CTest and scripts/gpu-suite.sh read them.
FAILED, BAD_ARGUMENTS, SKIPPED = 1, 2, 77


class Refusal(Exception):
    """Stops a script with one line on stderr and an exit status."""

    def __init__(self, message, status=FAILED):
        super().__init__(message)
        self.status = status


def bad(message):
    return Refusal(message, BAD_ARGUMENTS)


def skip(reason):
    return Refusal(f"SKIP: {reason}", SKIPPED)


class Parser(argparse.ArgumentParser):
    """argparse whose refusal is one line and exit 2, and whose --help is the module's text.
    The words after the options land in args.positional: at least fewest_words (else the
    refusal too_few, which says what is missing), at most most_words."""

    def __init__(self, prog, doc, fewest_words=0, most_words=0, too_few=""):
        super().__init__(prog=prog, add_help=False, allow_abbrev=False)
        self.doc = doc
        self.fewest_words, self.most_words, self.too_few = fewest_words, most_words, too_few
        self.add_argument("-h", "--help", action="store_true")
        if most_words:
            self.add_argument("positional", nargs="*")

    def error(self, message):
        raise bad(f"{message} (see --help)")

    def add_build_and_out(self):
        """--build (default build/release) and --out: where the tool is and where reports go."""
        self.add_argument("--build", default=str(ROOT / "build" / "release"))
        self.add_argument("--out")

    def parse(self, argv):
        if any(a in ("-h", "--help") for a in argv):
            print(self.doc.strip("\n"))
            sys.exit(0)
        args = self.parse_intermixed_args(argv)
        words = getattr(args, "positional", [])
        if len(words) < self.fewest_words:
            raise bad(f"{self.too_few} (see --help)")
        if len(words) > self.most_words:
            raise bad(f"too many arguments: {' '.join(args.positional)} (see --help)")
        return args


def main(prog, run, argv):
    """Runs run(argv); a Refusal becomes "<prog>: <message>" on stderr and its exit status."""
    try:
        status = run(argv)
    except Refusal as refusal:
        print(f"{prog}: {refusal}", file=sys.stderr)
        status = refusal.status
    except KeyboardInterrupt:
        status = 130
    except BrokenPipeError:
        # A reader that stopped early (grep -q): no traceback, the shell's SIGPIPE status.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 141
    sys.exit(status or 0)


def whole_number(option, text):
    """A positive whole number, or a refusal that names the option."""
    if not re.fullmatch(r"[0-9]+", text or "") or int(text) == 0:
        raise bad(f"{option} '{text}' must be a positive whole number")
    return int(text)


def output_folder(path, option="--out"):
    """path made a writable folder (parents too) before any work, or one line and exit 2."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise bad(f"{option} {path}: cannot make the folder ({e.strerror})") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise bad(f"{option} {path}: the folder is not writable")
    return path


def cudalab(build, hint="scripts/setup.sh"):
    tool = Path(build) / "tools" / "cudalab" / "cudalab"
    if not os.access(tool, os.X_OK):
        raise Refusal(f"{tool} not found: build first ({hint})")
    return str(tool)


def find_program(name, variable, fallbacks=()):
    """$variable (which must be executable), else name on PATH, else the last fallback that
    exists (globs sorted by version, newest last); None when there is none."""
    named = os.environ.get(variable)
    if named:
        if not os.access(named, os.X_OK):
            raise bad(f"{variable}={named} is not an executable")
        return named
    on_path = shutil.which(name)
    if on_path:
        return on_path
    for pattern in fallbacks:
        found = sorted(glob.glob(pattern), key=version_key)
        if found and os.access(found[-1], os.X_OK):
            return found[-1]
    return None


def version_key(path):
    """Orders 2025.10.0 after 2025.3.1, as sort -V does."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]


def require_device(tool):
    """Skips (77) where `cudalab device` finds no usable CUDA device (its exit 3)."""
    done = subprocess.run([tool, "device"], capture_output=True, text=True, check=False)
    if done.returncode == 3:
        why = (done.stderr.strip().splitlines() or ["no reason given"])[0]
        raise skip(f"no usable CUDA device ({why})")


def write_csv(rows, columns, output=None):
    """rows (dicts) as CSV with a header of columns: to the file `output`, else to standard output.
    The whole text is made first, so a file is never left half written by a bad row."""
    text = io.StringIO()
    writer = csv.DictWriter(text, columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    if output:
        Path(output).write_text(text.getvalue())
    else:
        sys.stdout.write(text.getvalue())


def card_and_driver(environment, width=100):
    """(card, driver) of the GPU CUDA calls device 0 (the first of CUDA_VISIBLE_DEVICES, whose
    numbering nvidia-smi shares under CUDA_DEVICE_ORDER=PCI_BUS_ID), from nvidia-smi ($NVIDIA_SMI
    names another): what a measurement is filed under. A refusal, within `width`, without it."""
    visible = environment.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
    smi = find_program("nvidia-smi", "NVIDIA_SMI")
    if smi is None:
        raise Refusal("nvidia-smi not found: the card and driver of each output come from it")
    done = subprocess.run([smi, "-i", visible or "0", "--query-gpu=name,driver_version",
                           "--format=csv,noheader"], capture_output=True, text=True, check=False)
    fields = [f.strip() for f in done.stdout.strip().split("\n")[0].split(",")]
    if done.returncode != 0 or len(fields) != 2 or not all(fields):
        why = (done.stderr.strip() or done.stdout.strip() or "no output").split("\n")[0]
        raise Refusal(f"nvidia-smi named no card and driver: {why}"[:width])
    return fields[0], fields[1]
