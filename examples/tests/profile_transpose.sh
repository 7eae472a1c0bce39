#!/bin/sh
# profile_transpose.sh <cudalab> <example_transpose>: `cudalab profile` on a program the kit did
# not write, held to the closed forms of its two kernels at n = 1024 (rows of 4096 bytes, every
# warp's row aligned to its sectors; 32,768 warps a kernel). transpose_naive: loads 4 sectors a
# request, stores 32 (every lane its own sector), ideal 2 x 131,072 sectors, waste 917,504;
# transpose_tiled: 4 sectors a request both ways, no waste, no bank conflict. Exit 77 (a skip)
# only where there is no CUDA device, which profile says with exit 3.
tool=$1 example=$2
csv=$("$tool" profile --format csv -- "$example" 1024 2>/tmp/profile_transpose.$$.err)
status=$?
[ "$status" -eq 3 ] && { cat /tmp/profile_transpose.$$.err; rm -f /tmp/profile_transpose.$$.err; exit 77; }
cat /tmp/profile_transpose.$$.err; rm -f /tmp/profile_transpose.$$.err
[ "$status" -eq 0 ] || { echo "profile_transpose: cudalab profile exited $status"; exit 1; }
echo "$csv"
# kernel,launches,untraced,dropped,ld_req,ld_sect,ld_bytes,st_req,st_sect,st_bytes,ideal,waste,
# sh_ld_wavefronts,sh_st_wavefronts,sh_ld_conflicts,sh_st_conflicts
expect() {  # expect <kernel name prefix> <columns 2..16 as one comma-separated string>
  line=$(echo "$csv" | grep "^\"$1(")
  got=${line#*\",}
  [ "$got" = "$2" ] || { echo "profile_transpose: $1: got '$got', want '$2'"; exit 1; }
}
expect transpose_naive "1,0,0,32768,131072,4194304,32768,1048576,4194304,262144,917504,0,0,0,0"
expect transpose_tiled "1,0,0,32768,131072,4194304,32768,131072,4194304,262144,0,32768,32768,0,0"
echo "profile_transpose: both kernels equal their closed forms"
