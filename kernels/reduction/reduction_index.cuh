// Index arithmetic of lab 05 (reduction), shared by the kernels (device) and the access model
// (host), so a prediction walks exactly the addresses the kernels touch.
//
// Every function takes plain integers (thread, block, stride), never blockIdx/threadIdx, so the
// model can call it for any lane of any warp.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::reduction {

// Block sizes the tree kernels accept: a power of two from one warp to the hardware maximum.
inline constexpr unsigned min_block = 32;
inline constexpr unsigned max_block = 1024;
// The second pass of the two-pass variants: one block of this many threads.
inline constexpr unsigned finish_block = 1024;
// The grid-stride kernel launches at most this many threads in all (about what an H100 keeps
// resident: 132 SMs x 2048). A fixed budget, not the device's occupancy, so the launch shape,
// and with it the prediction, depends on (n, block) only.
inline constexpr unsigned grid_stride_thread_budget = 1u << 18;
// Largest n: 32-bit indices, and the integer variant's sum of values <= 7 stays below 2^31.
inline constexpr std::size_t max_elements = std::size_t{1} << 28;

__host__ __device__ inline bool is_valid_block(unsigned block) {
  return block >= min_block && block <= max_block && (block & (block - 1)) == 0;
}

// ---- one element a thread (kernels 1-3) ------------------------------------------------------
// The element thread `tid` of block `block` loads into shared memory.
__host__ __device__ inline unsigned tree_load_index(unsigned block, unsigned tid,
                                                    unsigned block_dim) {
  return block * block_dim + tid;
}
// Interleaved addressing, divergent form: at stride s only threads with tid % 2s == 0 add.
__host__ __device__ inline bool interleaved_divergent_active(unsigned tid, unsigned s) {
  return tid % (2 * s) == 0;
}
// Interleaved addressing, strided form: thread tid works on word 2*s*tid (if inside the block).
__host__ __device__ inline unsigned interleaved_strided_index(unsigned tid, unsigned s) {
  return 2 * s * tid;
}
// Sequential addressing: at stride s the first s threads add word tid + s into word tid.
__host__ __device__ inline bool sequential_active(unsigned tid, unsigned s) { return tid < s; }

// ---- two elements a thread (first add during load) ------------------------------------------
// Block b covers 2*block_dim elements: thread tid adds element first_add_index and the one
// block_dim after it.
__host__ __device__ inline unsigned first_add_index(unsigned block, unsigned tid,
                                                    unsigned block_dim) {
  return 2 * block * block_dim + tid;
}

// ---- grid-stride (many elements a thread, 16-byte vector loads) -----------------------------
// The k-th 4-element vector thread `global_id` loads.
__host__ __device__ inline unsigned grid_stride_vector_index(unsigned global_id, unsigned k,
                                                             unsigned stride) {
  return global_id + k * stride;
}
// The n % 4 elements after the last whole vector: thread global_id < n % 4 adds one of them.
__host__ __device__ inline unsigned grid_stride_tail_index(unsigned n, unsigned global_id) {
  return n / 4 * 4 + global_id;
}
// Lane 0 of every warp stores its warp's sum in word `warp` of the block's shared array.
__host__ __device__ inline unsigned warp_of(unsigned tid) { return tid / 32; }
__host__ __device__ inline unsigned lane_of(unsigned tid) { return tid % 32; }

// ---- second pass: one block folds the partial sums -------------------------------------------
// The k-th partial sum thread tid of the single finishing block loads.
__host__ __device__ inline unsigned finish_index(unsigned tid, unsigned k, unsigned block_dim) {
  return tid + k * block_dim;
}

// ---- launch shapes ---------------------------------------------------------------------------
__host__ __device__ inline unsigned tree_blocks(std::size_t n, unsigned block) {
  return static_cast<unsigned>((n + block - 1) / block);
}
__host__ __device__ inline unsigned first_add_blocks(std::size_t n, unsigned block) {
  return static_cast<unsigned>((n + 2 * std::size_t{block} - 1) / (2 * std::size_t{block}));
}
__host__ __device__ inline unsigned grid_stride_blocks(std::size_t n, unsigned block) {
  const std::size_t vectors = n / 4 > 0 ? n / 4 : 1;
  const std::size_t needed = (vectors + block - 1) / block;
  const std::size_t budget = grid_stride_thread_budget / block;
  return static_cast<unsigned>(needed < budget ? needed : budget);
}

}  // namespace cudalab::reduction
