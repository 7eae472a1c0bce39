// Lab 05 naive kernels: the first two steps of the classic shared-memory tree reduction.
//
// Each block loads blockDim.x elements into shared memory (0 past the end of the array),
// folds them pairwise in log2(blockDim.x) steps separated by __syncthreads(), and thread 0
// writes the block's partial sum. Only the addressing of the steps differs:
//
//   interleaved_divergent  at stride s, threads with tid % (2s) == 0 add word tid + s into
//                          word tid. The active threads are spread over every warp, so warps
//                          run the step with 16, 8, 4, 2, 1 of their 32 lanes.
//   interleaved_strided    thread tid works on word 2*s*tid: the active threads are
//                          contiguous (no divergence), but a warp's words are 2s apart, so
//                          up to 16 of them fall in one bank: shared-memory bank conflicts.
//
// Why interleaved_divergent calls a __noinline__ function. Written as the textbook
// `if (tid % (2*s) == 0) sdata[tid] += sdata[tid + s];`, the body is two loads, an add and a
// store, and nvcc -O3 if-converts it: the SASS has `@!P1 LDS`, `@!P1 LDS`, `@!P1 STS` and no
// branch, every warp issues all three with the inactive lanes predicated off, and the
// profiler reports 100% branch uniformity. With the body in a function that is not inlined,
// ptxas keeps the test as a branch over the call's setup and the call (it could predicate a
// lone CALL; here it does not):
//     BSSY B0, <join> ; ... ISETP.NE P0, (tid % 2s), 0 ; @P0 BRA <join> ;
//     IMAD/MOV (arguments, return address) ; CALL.REL.NOINC add_partner ; <join>: BSYNC B0
// (check: cuobjdump -sass build/release/kernels/libcudalab_kernels.a | grep -E "BSSY|BRA|CALL").
// P0 differs between the lanes of a warp, so `@P0 BRA` is the divergent branch: a warp whose
// lanes all fail the test jumps over the call together; a warp with some workers splits, the
// workers run the call (LDS, LDS, FADD, STS, RET) while the others wait at BSYNC. That is the
// divergence the lesson is about, and the counters show it (divergent branch targets > 0,
// fewer threads per instruction than sequential addressing). A test holds the build to it:
// the instruction model walks this SASS and must find the branch.
#include "reduction/reduction_device.cuh"
#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"
#include "reduction/reduction_launch.cuh"

#include "cudalab/check.hpp"

namespace cudalab::reduction {

template <typename T>
__device__ __noinline__ void add_partner(T* sdata, unsigned tid, unsigned s) {
  sdata[tid] += sdata[tid + s];
}

template <typename T>
__global__ void reduce_interleaved_divergent_kernel(const T* in, T* partial, unsigned n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const unsigned i = tree_load_index(blockIdx.x, tid, blockDim.x);
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (interleaved_divergent_active(tid, s)) add_partner(sdata, tid, s);
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <typename T>
__global__ void reduce_interleaved_strided_kernel(const T* in, T* partial, unsigned n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const unsigned i = tree_load_index(blockIdx.x, tid, blockDim.x);
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = interleaved_strided_index(tid, s);
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <typename T>
launch_dims launch_interleaved_divergent(const T* in, T* partial, std::size_t n, unsigned block,
                                         cudaStream_t stream) {
  return launch_tree<T>(reduce_interleaved_divergent_kernel<T>, tree_blocks, in, partial, n, block,
                        stream);
}

template <typename T>
launch_dims launch_interleaved_strided(const T* in, T* partial, std::size_t n, unsigned block,
                                       cudaStream_t stream) {
  return launch_tree<T>(reduce_interleaved_strided_kernel<T>, tree_blocks, in, partial, n, block,
                        stream);
}

#define CUDALAB_INSTANTIATE_NAIVE(T)                                                        \
  template launch_dims launch_interleaved_divergent<T>(const T*, T*, std::size_t, unsigned, \
                                                       cudaStream_t);                       \
  template launch_dims launch_interleaved_strided<T>(const T*, T*, std::size_t, unsigned,   \
                                                     cudaStream_t);
CUDALAB_INSTANTIATE_NAIVE(float)
CUDALAB_INSTANTIATE_NAIVE(int)
#undef CUDALAB_INSTANTIATE_NAIVE

}  // namespace cudalab::reduction
