# cuda-gdb batch file for lab 08's "Step through it" (README): register_2d at n = 130 (a 2 x 2
# grid of 128 x 128 block tiles, 256 threads a block, 8 x 8 outputs a thread). Run it from the
# repository root with the debug build:
#   cuda-gdb -batch -x labs/08-register-tiling/register_2d.gdb --args \
#     build/debug/tools/cudalab/cudalab run 08 --variant register_2d --size 130 --repeat 1 \
#     --warmup 0 --no-counters
# breaks at: kernels/matmul/matmul_register_2d.cu: inner_steps(n, BK);
# (the CPU test cli.gdb_files_break_where_they_say keeps the line number below true)
set pagination off
set confirm off
set breakpoint pending on
set cuda break_on_launch none
break matmul_register_2d.cu:24
run
cuda block (1,1,0) thread (255,0,0)
echo \n== block (1,1,0) thread (255,0,0): the block tile's first row and column, and the thread\n
print row0
print col0
print t
print n
print acc[0]
kill
quit
