// Lab 07 launchers: each planted bug beside its fixed twin. Every launcher checks its shape,
// launches on a stream and checks the launch (CUDALAB_CHECK_LAUNCH), except the one whose bug is
// that it does not: launch_chunk_reverse_unchecked.
#pragma once

#include <cuda_runtime_api.h>

#include "debugging/debugging_index.cuh"

#include <cstddef>
#include <cstdint>

namespace cudalab::debugging {

struct launch_dims {
  dim3 grid;
  dim3 block;
};

// Throws usage_error unless 1 <= block <= 1024 (and a multiple of `multiple`).
void check_block(unsigned block, unsigned multiple = 1);

// --- memcheck ---------------------------------------------------------------------------
// BUGGY oob_write: ceil(n/t) blocks and no `if (i < n)`: the tail block writes past out[n-1].
launch_dims launch_ramp_unguarded(float* out, std::size_t n, unsigned block, cudaStream_t stream);
// FIXED: the same grid with the guard.
launch_dims launch_ramp_guarded(float* out, std::size_t n, unsigned block, cudaStream_t stream);

// BUGGY index_overflow: `int i = blockIdx.x * blockDim.x + threadIdx.x` over n > 2^31 bytes:
// from element 2^31 on, i is negative and the write lands 2 GiB before `out`.
launch_dims launch_byte_fill_int_index(unsigned char* out, std::size_t n, unsigned block,
                                       cudaStream_t stream);
// FIXED: the index widened to 64 bits before the multiply.
launch_dims launch_byte_fill_64_index(unsigned char* out, std::size_t n, unsigned block,
                                      cudaStream_t stream);

// BUGGY leak: out[i] = in[i] * table[i % 256], with the table made on first use and never
// freed (one allocation a process). leaky_table is that first use: it makes the table the first
// time it is called and returns the same one after.
const float* leaky_table(cudaStream_t stream);
launch_dims launch_table_scale_leaky(const float* in, float* out, std::size_t n, unsigned block,
                                     cudaStream_t stream);
// FIXED: the caller owns the table (table_entries floats), filled by fill_table.
void fill_table(float* table, cudaStream_t stream);
launch_dims launch_table_scale(const float* in, const float* table, float* out, std::size_t n,
                               unsigned block, cudaStream_t stream);

// --- racecheck and synccheck ----------------------------------------------------------------
// BUGGY missing_sync: the 3-point blur through a shared tile, no barrier between filling the
// tile and reading the neighbours' slots.
launch_dims launch_blur_no_sync(const float* in, float* out, std::size_t n, unsigned block,
                                cudaStream_t stream);
// FIXED: __syncthreads() between the two.
launch_dims launch_blur_tiled(const float* in, float* out, std::size_t n, unsigned block,
                              cudaStream_t stream);

// BUGGY divergent_barrier: even and odd lanes each wait at their own __syncthreads(), inside
// an if/else that splits every warp.
launch_dims launch_pair_swap_divergent(const float* in, float* out, std::size_t n, unsigned block,
                                       cudaStream_t stream);
// FIXED: the branch only picks the value; one barrier outside it.
launch_dims launch_pair_swap(const float* in, float* out, std::size_t n, unsigned block,
                             cudaStream_t stream);

// --- initcheck ------------------------------------------------------------------------------
// A two-pass sum: block sums into partial[], then one thread adds them into *total.
// BUGGY uninit_read: the first pass runs n / t blocks (the tail block is forgotten), the second
// reads ceil(n/t) partial sums: the last was never written.
launch_dims launch_sum_partials_underlaunch(const float* in, float* partial, double* total,
                                            std::size_t n, unsigned block, cudaStream_t stream);
// FIXED: ceil(n/t) blocks in the first pass, loads guarded.
launch_dims launch_sum_partials(const float* in, float* partial, double* total, std::size_t n,
                                unsigned block, cudaStream_t stream);
// The partial sums both need: ceil(n/t).
std::size_t partial_count(std::size_t n, unsigned block);

// --- launch errors ----------------------------------------------------------------------------
// The staged reverse: each block reverses a chunk of reverse_chunk floats through 64 KiB of
// dynamic shared memory.
// BUGGY unchecked_launch: asks for 64 KiB without opting in; the launch fails and nobody looks.
launch_dims launch_chunk_reverse_unchecked(const float* in, float* out, std::size_t n,
                                           unsigned block, cudaStream_t stream);
// The same launch, checked: throws cuda_error (cudaErrorInvalidValue) at this line.
launch_dims launch_chunk_reverse_checked(const float* in, float* out, std::size_t n, unsigned block,
                                         cudaStream_t stream);
// FIXED: opts in to 64 KiB (cudaFuncAttributeMaxDynamicSharedMemorySize), launches, checks.
launch_dims launch_chunk_reverse(const float* in, float* out, std::size_t n, unsigned block,
                                 cudaStream_t stream);

// --- bugs no tool sees ----------------------------------------------------------------------
// BUGGY global_race: bins[in[i]] += 1 with a plain read-modify-write: increments are lost.
launch_dims launch_histogram_racy(const unsigned char* in, unsigned* bins, std::size_t n,
                                  unsigned block, cudaStream_t stream);
// FIXED: atomicAdd on the global bins.
launch_dims launch_histogram_atomic(const unsigned char* in, unsigned* bins, std::size_t n,
                                    unsigned block, cudaStream_t stream);
// FIXED: each block counts into shared bins, then adds them to the global ones. It loops over
// the array: a few blocks an SM are enough to fill it, so its grid stops at
// privatised_max_blocks.
inline constexpr std::size_t privatised_max_blocks = 1024;
launch_dims launch_histogram_privatised(const unsigned char* in, unsigned* bins, std::size_t n,
                                        unsigned block, cudaStream_t stream);

// BUGGY swapped_index: x picks the row and y the column, while the grid spans columns in x.
launch_dims launch_scale_rows_swapped(const float* in, float* out, matrix_shape m, unsigned threads,
                                      cudaStream_t stream);
// FIXED: x picks the column.
launch_dims launch_scale_rows(const float* in, float* out, matrix_shape m, unsigned threads,
                              cudaStream_t stream);
// Both launch 32 x (threads/32) blocks over the columns (x) and rows (y).
launch_dims matrix_dims(matrix_shape m, unsigned threads);

}  // namespace cudalab::debugging
