# cuda-gdb batch file for lab 08's "Step through it" (README): register_2d at n = 130 (a 2 x 2
# grid of 128 x 128 block tiles, 256 threads a block, 8 x 8 outputs a thread). @LINE@ is the line
# of `inner_steps(n, BK)` in kernels/matmul/matmul_register_2d.cu; scripts/gpu-suite.sh fills it in.
set pagination off
set confirm off
set breakpoint pending on
set cuda break_on_launch none
break matmul_register_2d.cu:@LINE@
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
