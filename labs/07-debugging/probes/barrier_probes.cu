// cudalab_barrier_probes FORM: one misuse of a barrier, launched as 64 blocks of 256 threads, so
// that scripts/barrier-probes.sh can see what each does with and without synccheck (lab 07's
// table of barrier misuses is rendered from what it measured). FORM is one of the names below;
// `list` prints each with what it does, a tab between.
//
// Prints "ran to the end" and exits 0 when the launch and the synchronisation succeed; prints
// the CUDA error and exits 1 when either fails; exit 2 and one line for a FORM it does not know.
// A form that hangs never returns: the script's time limit says so.
#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>

namespace {

constexpr unsigned blocks = 64, threads = 256;

// Each form is the barrier code of one kernel (probe_kernel below): its meet(t) runs between a
// thread's write to shared memory and its read of a partner's word, and returns false where the
// thread exits there.

// Whole warps at two different __syncthreads(): the first half of the block's warps wait in the
// branch, the rest after it (lab 07's divergent_barrier).
struct warps_at_two_barriers {
  static constexpr unsigned partner = 1;
  __device__ static bool meet(unsigned t) {
    if (t / 32 < threads / 64) __syncthreads();
    __syncthreads();
    return true;
  }
};

// The lanes of each warp split between two __syncthreads(): even lanes in the branch, odd after.
struct lanes_at_two_barriers {
  static constexpr unsigned partner = 1;
  __device__ static bool meet(unsigned t) {
    if (t % 2 == 0) __syncthreads();
    __syncthreads();
    return true;
  }
};

// Odd lanes exit before the block's only barrier (the even ones read an even partner).
struct odd_lanes_exit {
  static constexpr unsigned partner = 2;
  __device__ static bool meet(unsigned t) {
    if (t % 2 == 1) return false;
    __syncthreads();
    return true;
  }
};

// One whole warp (the block's fourth) exits before the block's only barrier.
struct warp_exits {
  static constexpr unsigned partner = 1;
  __device__ static bool meet(unsigned t) {
    if (t / 32 == 3) return false;
    __syncthreads();
    return true;
  }
};

// Every lane calls __syncwarp with a mask that leaves lanes 16 to 31 out. Where the compiler
// can prove the warp converged at the call it emits no WARPSYNC at all (a NOP in this file's
// SASS, with the mask a constant or computed): the call sits in a branch it cannot prove every
// lane takes (each does: t < blockDim.x).
struct syncwarp_mask_leaves_callers_out {
  static constexpr unsigned partner = 1;
  __device__ static bool meet(unsigned t) {
    if (t < blockDim.x) __syncwarp(0x0000ffffu);
    return true;
  }
};

// Lanes 0 to 15 at one __syncwarp(), lanes 16 to 31 at another: no misuse (from sm_70 on the
// lanes of a full mask may meet at different calls), the table's contrast. Each lane reads a
// partner of its own half-warp.
struct syncwarp_at_two_calls {
  static constexpr unsigned partner = 1;
  __device__ static bool meet(unsigned t) {
    if (t % 32 < 16)
      __syncwarp();
    else
      __syncwarp();
    return true;
  }
};

// Each thread writes its word of a shared tile, meets the others as Form says, and copies its
// partner's word out: the barrier has work to order, so the compiler keeps it.
template <typename Form>
__global__ void probe_kernel(float* out) {
  __shared__ float tile[threads];
  const unsigned t = threadIdx.x;
  tile[t] = static_cast<float>(t);
  if (!Form::meet(t)) return;
  out[blockIdx.x * threads + t] = tile[t ^ Form::partner];
}

struct form {
  const char* name;
  const char* misuse;  // what the table says of it
  void (*kernel)(float*);
};

constexpr form forms[] = {
    {"warps_at_two_barriers",
     "whole warps at two different `__syncthreads()`, as in lab 07's kernel",
     probe_kernel<warps_at_two_barriers>},
    {"lanes_at_two_barriers", "lanes of one warp at two different `__syncthreads()`",
     probe_kernel<lanes_at_two_barriers>},
    {"odd_lanes_exit", "odd lanes skip the only barrier and exit", probe_kernel<odd_lanes_exit>},
    {"warp_exits", "a warp skips the only barrier and exits", probe_kernel<warp_exits>},
    {"syncwarp_mask_leaves_callers_out", "`__syncwarp(mask)` by lanes the mask leaves out",
     probe_kernel<syncwarp_mask_leaves_callers_out>},
    {"syncwarp_at_two_calls",
     "half the lanes at one `__syncwarp()`, half at another: legal from sm_70 on",
     probe_kernel<syncwarp_at_two_calls>},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr,
                 "usage: cudalab_barrier_probes FORM (cudalab_barrier_probes list names them)\n");
    return 2;
  }
  if (std::strcmp(argv[1], "list") == 0) {
    for (const form& f : forms) std::printf("%s\t%s\n", f.name, f.misuse);
    return 0;
  }
  for (const form& f : forms) {
    if (std::strcmp(argv[1], f.name) != 0) continue;
    try {
      cudalab::device_buffer<float> out(blocks * threads);
      f.kernel<<<blocks, threads>>>(out.data());
      CUDALAB_CHECK_LAUNCH();
      CUDALAB_CHECK_CUDA(cudaDeviceSynchronize());
    } catch (const std::exception& e) {
      std::printf("%s\n", e.what());
      return 1;
    }
    std::printf("ran to the end\n");
    return 0;
  }
  std::fprintf(stderr,
               "cudalab_barrier_probes: no form '%s' (cudalab_barrier_probes list names them)\n",
               argv[1]);
  return 2;
}
