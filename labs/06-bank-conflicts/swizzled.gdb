# cuda-gdb batch file for lab 06's "Step through it" (README): the swizzled transpose at n = 40
# (a 2 x 2 grid of 32 x 32 blocks), stopped at the read of a tile column. Run it from the
# repository root with the debug build:
#   cuda-gdb -batch -x labs/06-bank-conflicts/swizzled.gdb --args \
#     build/debug/tools/cudalab/cudalab run 06 --variant swizzled --size 40 --repeat 1 \
#     --warmup 0 --no-counters
# breaks at: kernels/transpose/transpose_tiled.cu: out[element_index(c, r, rows)] = tile[
# (the CPU test cli.gdb_files_break_where_they_say keeps the line number below true)
set pagination off
set confirm off
set breakpoint pending on
set cuda break_on_launch none
break transpose_tiled.cu:50
run
cuda block (1,1,0) thread (3,5,0)
echo \n== block (1,1,0) thread (3,5,0): its tile row, the output element it writes, the tile word\n
print lr
print r
print c
print tx * 32 + (lr ^ tx)
kill
quit
