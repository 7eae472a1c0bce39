#!/bin/sh
# run_example.sh <program> [args...]: runs one of examples/ on the GPU; exit 77 (a skip, with the
# program's own line) where it finds no CUDA device, which it says with exit 3.
"$@"
status=$?
[ "$status" -eq 3 ] && exit 77
exit "$status"
