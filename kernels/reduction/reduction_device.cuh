// Device-side pieces shared by the lab 05 kernels: the dynamic shared array, the sequential
// shared-memory tree and the warp-shuffle sum.
#pragma once

#include "reduction/reduction_index.cuh"

namespace cudalab::reduction {

// Dynamic shared memory (blockDim.x elements), typed; a template cannot declare
// `extern __shared__ T[]` for several T, so the bytes are declared once and cast.
template <typename T>
__device__ inline T* shared_array() {
  extern __shared__ __align__(16) unsigned char reduction_shared_bytes[];
  return reinterpret_cast<T*>(reduction_shared_bytes);
}

// Sequential addressing: at stride s the first s threads add word tid + s into word tid,
// for s = blockDim.x/2 down to (but excluding) `stop`. The active threads stay contiguous,
// so whole warps drop out together and a warp's 32 words sit in 32 different banks.
template <typename T>
__device__ inline void tree_sequential(T* sdata, unsigned tid, unsigned stop) {
  for (unsigned s = blockDim.x / 2; s > stop; s >>= 1) {
    if (sequential_active(tid, s)) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
}

// The sum of `value` over the 32 lanes of a warp, in lane 0 (all lanes must be present).
template <typename T>
__device__ inline T warp_sum(T value) {
  for (int offset = 16; offset > 0; offset >>= 1)
    value += __shfl_down_sync(0xffffffffu, value, offset);
  return value;
}

}  // namespace cudalab::reduction
