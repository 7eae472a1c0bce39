// Lab 05 fixed kernels: the steps that turn the naive tree into a bandwidth-bound reduction.
//
//   sequential       at stride s = blockDim/2, blockDim/4, ... 1 the first s threads add word
//                    tid + s into word tid: active threads are contiguous (whole warps retire
//                    together, no divergence) and a warp reads 32 consecutive words (one
//                    wavefront, no bank conflict). One partial sum a block.
//   first_add        the same tree, but each thread adds two elements while loading, so half
//                    the blocks do the same work and no thread idles in the first step.
//   warp_shuffle     first add, the shared tree down to 64 words, then the last 32 values move
//                    between registers with __shfl_down_sync: no shared traffic, no barrier.
//   finish           the second pass of the two-pass variants: one block loops over the
//                    partial sums (coalesced), then the same sequential tree.
//   grid_stride      a bounded grid (grid_stride_blocks); each thread sums many float4
//                    vectors (16-byte loads, a quarter of the load instructions), a warp
//                    shuffle folds each warp, one shared word per warp folds the block, and
//                    one atomicAdd a block accumulates the total.
// The if-tests of the trees (tid < s) guard an add and a store only: nvcc predicates them,
// so these kernels have no divergent branch (cuobjdump -sass shows @P LDS/STS, no BSSY).
#include "reduction/reduction_device.cuh"
#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"
#include "reduction/reduction_launch.cuh"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab::reduction {

template <typename T>
struct vec4_of;
template <>
struct vec4_of<float> {
  using type = float4;
};
template <>
struct vec4_of<int> {
  using type = int4;
};

template <typename T>
__global__ void reduce_sequential_kernel(const T* in, T* partial, unsigned n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const unsigned i = tree_load_index(blockIdx.x, tid, blockDim.x);
  sdata[tid] = i < n ? in[i] : T(0);
  __syncthreads();
  tree_sequential(sdata, tid, 0);
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <typename T>
__global__ void reduce_first_add_kernel(const T* in, T* partial, unsigned n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const unsigned i = first_add_index(blockIdx.x, tid, blockDim.x);
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  tree_sequential(sdata, tid, 0);
  if (tid == 0) partial[blockIdx.x] = sdata[0];
}

template <typename T>
__global__ void reduce_warp_shuffle_kernel(const T* in, T* partial, unsigned n) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const unsigned i = first_add_index(blockIdx.x, tid, blockDim.x);
  T sum = i < n ? in[i] : T(0);
  if (i + blockDim.x < n) sum += in[i + blockDim.x];
  sdata[tid] = sum;
  __syncthreads();
  tree_sequential(sdata, tid, 32);
  if (tid < 32) {
    sum = sdata[tid];
    if (blockDim.x >= 64) sum += sdata[tid + 32];
    sum = warp_sum(sum);
    if (tid == 0) partial[blockIdx.x] = sum;
  }
}

template <typename T>
__global__ void reduce_finish_kernel(const T* partial, T* out, unsigned m) {
  T* sdata = shared_array<T>();
  const unsigned tid = threadIdx.x;
  T sum = T(0);
  for (unsigned k = 0;; ++k) {
    const unsigned j = finish_index(tid, k, blockDim.x);
    if (j >= m) break;
    sum += partial[j];
  }
  sdata[tid] = sum;
  __syncthreads();
  tree_sequential(sdata, tid, 0);
  if (tid == 0) out[0] = sdata[0];
}

template <typename T>
__global__ void reduce_grid_stride_kernel(const T* in, T* out, unsigned n) {
  using vec4 = typename vec4_of<T>::type;
  __shared__ T warp_sums[max_block / 32];
  const unsigned tid = threadIdx.x;
  const unsigned global_id = blockIdx.x * blockDim.x + tid;
  const unsigned stride = gridDim.x * blockDim.x;
  const unsigned vectors = n / 4;
  const vec4* in4 = reinterpret_cast<const vec4*>(in);  // cudaMalloc bases are 256-B aligned
  T sum = T(0);
  for (unsigned k = 0;; ++k) {
    const unsigned v = grid_stride_vector_index(global_id, k, stride);
    if (v >= vectors) break;
    const vec4 x = in4[v];
    sum += (x.x + x.y) + (x.z + x.w);
  }
  if (global_id < n % 4) sum += in[grid_stride_tail_index(n, global_id)];
  sum = warp_sum(sum);
  if (lane_of(tid) == 0) warp_sums[warp_of(tid)] = sum;
  __syncthreads();
  if (warp_of(tid) == 0) {
    sum = lane_of(tid) < blockDim.x / 32 ? warp_sums[lane_of(tid)] : T(0);
    sum = warp_sum(sum);
    if (tid == 0) atomicAdd(out, sum);
  }
}

void check_block(unsigned block) {
  if (!is_valid_block(block))
    throw usage_error("block of " + std::to_string(block) +
                      " threads: the reduction trees halve the block at each step, so use a "
                      "power of two from 32 to 1024 (32, 64, 128, 256, 512, 1024)");
}

void check_size(std::size_t n) {
  if (n == 0 || n > max_elements)
    throw usage_error("size " + std::to_string(n) + ": lab 05 reduces 1 to " +
                      std::to_string(max_elements) + " elements (32-bit indices)");
}

template <typename T>
launch_dims launch_sequential(const T* in, T* partial, std::size_t n, unsigned block,
                              cudaStream_t stream) {
  return launch_tree<T>(reduce_sequential_kernel<T>, tree_blocks, in, partial, n, block, stream);
}

template <typename T>
launch_dims launch_first_add(const T* in, T* partial, std::size_t n, unsigned block,
                             cudaStream_t stream) {
  return launch_tree<T>(reduce_first_add_kernel<T>, first_add_blocks, in, partial, n, block,
                        stream);
}

template <typename T>
launch_dims launch_warp_shuffle(const T* in, T* partial, std::size_t n, unsigned block,
                                cudaStream_t stream) {
  return launch_tree<T>(reduce_warp_shuffle_kernel<T>, first_add_blocks, in, partial, n, block,
                        stream);
}

template <typename T>
launch_dims launch_finish(const T* partial, T* out, std::size_t m, cudaStream_t stream) {
  check_size(m);
  const launch_dims d{1, finish_block, finish_block * sizeof(T)};
  reduce_finish_kernel<T>
      <<<d.grid, d.block, d.shared_bytes, stream>>>(partial, out, static_cast<unsigned>(m));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

template <typename T>
launch_dims launch_grid_stride(const T* in, T* out, std::size_t n, unsigned block,
                               cudaStream_t stream) {
  check_block(block);
  check_size(n);
  const launch_dims d{grid_stride_blocks(n, block), block, 0};
  reduce_grid_stride_kernel<T><<<d.grid, d.block, 0, stream>>>(in, out, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

#define CUDALAB_INSTANTIATE_FIXED(T)                                                              \
  template launch_dims launch_sequential<T>(const T*, T*, std::size_t, unsigned, cudaStream_t);   \
  template launch_dims launch_first_add<T>(const T*, T*, std::size_t, unsigned, cudaStream_t);    \
  template launch_dims launch_warp_shuffle<T>(const T*, T*, std::size_t, unsigned, cudaStream_t); \
  template launch_dims launch_finish<T>(const T*, T*, std::size_t, cudaStream_t);                 \
  template launch_dims launch_grid_stride<T>(const T*, T*, std::size_t, unsigned, cudaStream_t);
CUDALAB_INSTANTIATE_FIXED(float)
CUDALAB_INSTANTIATE_FIXED(int)
#undef CUDALAB_INSTANTIATE_FIXED

}  // namespace cudalab::reduction
