// Lab 01 launchers: each checks its launch shape, launches on a stream and checks the launch.
#pragma once

#include <cuda_runtime_api.h>

#include "indexing/indexing_index.cuh"

#include <cstddef>

namespace cudalab::indexing {

struct launch_dims {
  dim3 grid;
  dim3 block;
};

// out[i] = a*in[i] + b for i < n, with the grid of the source tutorial (over-launches).
launch_dims launch_affine_overlaunch(const float* in, float* out, std::size_t n, unsigned block,
                                     float a, float b, cudaStream_t stream);
// BUGGY: the same kernel on n / t blocks: the last n % t elements are never written.
launch_dims launch_affine_underlaunch(const float* in, float* out, std::size_t n, unsigned block,
                                      float a, float b, cudaStream_t stream);
// Same kernel, ceil-div grid.
launch_dims launch_affine_guarded(const float* in, float* out, std::size_t n, unsigned block,
                                  float a, float b, cudaStream_t stream);
// BUGGY: ceil-div grid but no `if (i < n)`: the tail block writes past element n-1.
launch_dims launch_affine_unguarded(const float* in, float* out, std::size_t n, unsigned block,
                                    float a, float b, cudaStream_t stream);
// A bounded grid and a grid-stride loop.
launch_dims launch_affine_grid_stride(const float* in, float* out, std::size_t n, unsigned block,
                                      float a, float b, cudaStream_t stream);
// What the threads whose int index wrapped did instead of touching memory: how many, and the
// most negative index one of them computed. Reset to {0, INT_MAX} before each launch.
struct index_wrap_record {
  unsigned long long threads;
  int lowest_index;
};

// BUGGY: the window of a launch over more than 2^31 elements (overflow_window), indexed with an
// int. Threads past element 2^31 get a negative index that passes the 64-bit bounds guard; in a
// real launch they would read and write about 8 GiB before the arrays. Here they record the
// wrap in `wraps` and touch nothing: the kit must never corrupt memory to make a point.
launch_dims launch_affine_int_index(const float* in, float* out, std::size_t size, unsigned block,
                                    index_wrap_record* wraps, float a, float b,
                                    cudaStream_t stream);
// FIXED: the same window with a 64-bit index.
launch_dims launch_affine_int64_index(const float* in, float* out, std::size_t size, unsigned block,
                                      float a, float b, cudaStream_t stream);
// side x side matrix; block = 32 x (threads/32). x mapped to rows (naive) or columns (fixed).
launch_dims launch_matrix_x_rows(const float* in, float* out, std::size_t side, unsigned threads,
                                 float a, float b, cudaStream_t stream);
launch_dims launch_matrix_x_cols(const float* in, float* out, std::size_t side, unsigned threads,
                                 float a, float b, cudaStream_t stream);

}  // namespace cudalab::indexing
