# cuda-gdb batch file for lab 07's swapped_index (README: "Finding swapped_index with cuda-gdb").
# Run it from the repository root with the debug build (tests/debug/cuda_gdb_swapped_index.sh
# runs it so on the GPU):
#   cuda-gdb -batch -x labs/07-debugging/swapped_index.gdb --args build/debug/tools/cudalab/cudalab \
#     run 07-debugging --variant swapped_index --size 20000 --block 256 --no-counters --warmup 0 \
#     --repeat 1
# breaks at: kernels/debugging/silent_bugs.cu: // cuda-gdb: stop here
# (the CPU test cli.gdb_files_break_where_they_say keeps the line number below true)
set pagination off
set confirm off
set breakpoint pending on
set cuda break_on_launch none
# No condition on the breakpoint: set before the run, a condition on blockIdx cannot be parsed
# on the host ("No symbol blockIdx in current context") and the breakpoint is never made. The
# first thread to arrive stops every resident block (all 91 at this size); then switch focus.
break silent_bugs.cu:52
run
cuda block (1,0,0) thread (3,2,0)
echo \n== the swapped index: row, then col (block 32 x 8: this thread belongs at row 2, col 35)\n
print row
print col
echo \n== the value it stores, and where it reads from\n
print at
print in[at]
print rows
print cols
kill
quit
