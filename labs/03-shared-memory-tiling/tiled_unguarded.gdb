# cuda-gdb batch file for lab 03's "Step through it" (README): the unguarded tiled kernel at
# n = 17, T = 16 (a 2 x 2 grid of 16 x 16 blocks). @LINE@ is the line of the unguarded A tile load
# in kernels/matmul/matmul_tiled.cu; scripts/gpu-suite.sh fills it in.
set pagination off
set confirm off
set breakpoint pending on
set cuda break_on_launch none
break matmul_tiled.cu:@LINE@
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
