"""scripts/debug.sh [options] <lab> <variant> [kernel]
Stops cuda-gdb inside a variant's kernel, in batch mode, and prints where it is: the launch
(info cuda kernels), the focus block and thread, blockIdx/threadIdx/blockDim/gridDim, the
kernel's arguments, its locals after two `next`s, then the same for thread 5 of the block.
It runs `cudalab run <lab> --variant <variant> --no-counters --warmup 0 --repeat 1` from the
debug build (the `debug` preset: -g -G, so every local is visible and lines step in order).
It stops at the first kernel the variant launches (set cuda break_on_launch application: the
run launches nothing of its own before the variant), or at [kernel] when it is given (a kernel
name as `scripts/cuobjdump.sh -symbols` lists it), so no script keeps a table of kernels.
Options:
  --build DIR   the debug build (default build/debug: cmake --preset debug && cmake --build --preset debug)
  --size N      problem size (default 1000: small, and not a multiple of the block)
  --check       exit 0 only if cuda-gdb stopped in the kernel and thread 5 reads threadIdx.x = 5
  -h, --help    this text
cuda-gdb is $CUDA_GDB, else on PATH, else /usr/local/cuda/bin.
Exit status: 0 done, 1 failed, 2 bad arguments, 77 skipped (no cuda-gdb, no GPU, or not a
debug build).
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from . import cli, labs

PROG = "debug.sh"
THREAD_5 = "== thread 5 of the same block"


def parse(argv):
    parser = cli.Parser(PROG, __doc__, fewest_words=2, most_words=3,
                        too_few="usage: scripts/debug.sh <lab> <variant> [kernel]")
    parser.add_argument("--build", default=str(cli.ROOT / "build" / "debug"))
    parser.add_argument("--size", default="1000")
    parser.add_argument("--check", action="store_true")
    args = parser.parse(argv)
    args.lab, args.variant = args.positional[:2]
    args.kernel = args.positional[2] if len(args.positional) == 3 else ""
    return args


def gdb_commands(kernel):
    """The batch session: stop in the kernel, show the focus, step, switch to thread 5."""
    stop = ["set cuda break_on_launch none", f"break {kernel}"] if kernel else \
        ["set cuda break_on_launch application"]
    return ["set pagination off", "set confirm off", "set print pretty on",
            "set breakpoint pending on"] + stop + [
        "run",
        r"echo \n== the launch, and the focus (block, thread)\n",
        "info cuda kernels", "cuda kernel block thread",
        "print blockIdx", "print threadIdx", "print blockDim", "print gridDim",
        r"echo \n== the arguments\n", "info args",
        r"echo \n== two lines further: the locals of this thread\n", "next", "next", "info locals",
        rf"echo \n{THREAD_5}\n", "cuda thread (5,0,0)", "print threadIdx", "info locals",
        "backtrace", "kill", "quit"]


def stopped_in_kernel(session):
    """cuda-gdb announces a stop in device code with "[Switching focus to CUDA kernel ...]"."""
    return re.search(r"Switching focus to CUDA kernel|hit Breakpoint 1", session) is not None


def thread_5_reads_5(session):
    """After `cuda thread (5,0,0)`, threadIdx reads x = 5 (print pretty shows "x = 5,")."""
    _, found, after = session.partition(THREAD_5)
    return bool(found) and re.search(r"x = 5([^0-9]|$)", after, re.MULTILINE) is not None


def is_debug_build(build):
    try:
        cache = (Path(build) / "CMakeCache.txt").read_text(errors="replace")
    except OSError:
        return False
    return "CMAKE_BUILD_TYPE:STRING=Debug" in cache.splitlines()


def run(argv):
    args = parse(argv)
    tool = cli.cudalab(args.build, "cmake --preset debug && cmake --build --preset debug")
    lab = labs.one_lab(tool, args.lab)
    labs.require_variant(lab, args.variant)
    if not is_debug_build(args.build):
        raise cli.skip(f"{args.build} is not a Debug build (no -G): use the debug preset (build/debug)")
    cuda_gdb = cli.find_program("cuda-gdb", "CUDA_GDB", ["/usr/local/cuda/bin/cuda-gdb"])
    if not cuda_gdb:
        raise cli.skip("cuda-gdb not found on PATH, in $CUDA_GDB or /usr/local/cuda/bin")
    cli.require_device(tool)

    where = args.kernel or "on the first kernel launch"
    print(f"{PROG}: cuda-gdb, breakpoint {where}, running cudalab run {lab['id']} --variant {args.variant} "
          f"--size {args.size}", flush=True)
    with tempfile.NamedTemporaryFile("w", suffix=".gdb") as commands:
        commands.write("\n".join(gdb_commands(args.kernel)) + "\n")
        commands.flush()
        gdb = subprocess.Popen([cuda_gdb, "-batch", "-x", commands.name, "--args", tool, "run", lab["id"],
                                "--variant", args.variant, "--size", args.size, "--no-counters", "--warmup",
                                "0", "--repeat", "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace")
        session = []
        for line in gdb.stdout:  # shown as it comes, and kept for the checks below
            sys.stdout.write(line)
            sys.stdout.flush()
            session.append(line)
        gdb.wait()
    session = "".join(session)
    if not stopped_in_kernel(session):
        raise cli.Refusal(f"cuda-gdb never stopped in {args.kernel or 'a kernel'}: did the variant launch it? "
                          "(scripts/cuobjdump.sh -symbols lists kernels)")
    if args.check:
        if not thread_5_reads_5(session):
            raise cli.Refusal("cuda-gdb stopped, but thread 5's threadIdx did not read x = 5 after switching focus")
        print(f"{PROG}: ok: stopped in {args.kernel or 'the first kernel'}; thread 5 reads threadIdx.x = 5")
    return 0


if __name__ == "__main__":
    cli.main(PROG, run, sys.argv[1:])
