# cuda-gdb batch file for lab 03's "Step through it" (README): the unguarded tiled kernel at
# n = 17, T = 16 (a 2 x 2 grid of 16 x 16 blocks), stopped at the unguarded A tile load. Run it
# from the repository root with the debug build:
#   cuda-gdb -batch -x labs/03-shared-memory-tiling/tiled_unguarded.gdb --args \
#     build/debug/tools/cudalab/cudalab run 03 --variant tiled_unguarded --size 17 --repeat 1 \
#     --warmup 0 --no-counters
# breaks at: kernels/matmul/matmul_tiled.cu: a_tile[word] = a[element_index(row, a_col, n)];
# (the CPU test cli.gdb_files_break_where_they_say keeps the line number below true)
set pagination off
set confirm off
set breakpoint pending on
set cuda break_on_launch none
break matmul_tiled.cu:47
run
cuda block (1,1,0) thread (1,1,0)
echo \n== block (1,1,0) thread (1,1,0): the output it owns, and where its first loads read\n
print row
print col
print a_col
print b_row
print n
kill
quit
