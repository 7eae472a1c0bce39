// Lab 01 launchers: each checks its launch shape, launches on a stream and checks the launch.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace cudalab::indexing {

struct launch_dims {
  dim3 grid;
  dim3 block;
};

// out[i] = a*in[i] + b for i < n, with the grid of the source tutorial (over-launches).
launch_dims launch_affine_overlaunch(const float* in, float* out, std::size_t n, unsigned block,
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
// side x side matrix; block = 32 x (threads/32). x mapped to rows (naive) or columns (fixed).
launch_dims launch_matrix_x_rows(const float* in, float* out, std::size_t side, unsigned threads,
                                 float a, float b, cudaStream_t stream);
launch_dims launch_matrix_x_cols(const float* in, float* out, std::size_t side, unsigned threads,
                                 float a, float b, cudaStream_t stream);

}  // namespace cudalab::indexing
