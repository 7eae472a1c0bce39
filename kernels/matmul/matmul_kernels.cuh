// Lab 03 launchers: each checks its launch shape (the tile, the block, a grid that fits),
// launches on `stream` and checks the launch (CUDALAB_CHECK_LAUNCH).
//
// All compute C = A B for n x n row-major float matrices. The buffers hold
// matmul::padded_elements(n) floats (matmul_index.cuh): the guarded kernels touch only the
// first n x n, the unguarded one reaches into the band after them.
#pragma once

#include "cudalab/unique_handle.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

struct cublasContext;  // cuBLAS's handle type (cublas_api.h)

namespace cudalab::matmul {

struct launch_dims {
  dim3 grid;
  dim3 block;
};

// Largest n the matrix-product labs accept: four 8192 x 8192 float buffers (about 1 GB) and a
// sampled double-precision check (matmul_data.hpp) stay within seconds.
inline constexpr std::size_t max_side = 8192;

// Throws cudalab::usage_error for n = 0 or n > max_side.
void check_side(std::size_t n);
// The naive kernel's shape for `threads` a block (a multiple of 32, 32..1024): blocks of
// 32 x threads/32, a grid that covers n x n. Throws usage_error otherwise.
launch_dims naive_dims(std::size_t n, unsigned threads);
// A tiled kernel's shape: T x T blocks, ceil(n/T) x ceil(n/T) of them. Throws usage_error for a
// tile that is not built (2, 4, 8, 16, 32).
launch_dims tiled_dims(std::size_t n, unsigned tile);

// NAIVE: one output a thread, its row of A and column of B read from global memory.
launch_dims launch_naive(const float* a, const float* b, float* c, std::size_t n, unsigned threads,
                         cudaStream_t stream);
// FIXED: T x T tiles of A and B staged in shared memory; loads past the matrix write 0 into
// the tile, the store is guarded: any n.
launch_dims launch_tiled(const float* a, const float* b, float* c, std::size_t n, unsigned tile,
                         cudaStream_t stream);
// BUGGY: the tiled kernel without guards: right only when n is a multiple of the tile.
launch_dims launch_tiled_unguarded(const float* a, const float* b, float* c, std::size_t n,
                                   unsigned tile, cudaStream_t stream);
// BUGGY: the tiled kernel that writes C after every tile step: the right answer, with
// ceil(n/T) times the stores.
launch_dims launch_tiled_store_in_loop(const float* a, const float* b, float* c, std::size_t n,
                                       unsigned tile, cudaStream_t stream);

// cublasDestroy for unique_handle; a failure is reported on stderr (it runs in destructors).
struct destroy_cublas {
  void operator()(cublasContext* handle) const noexcept;
};

// BASELINE: cublasSgemm in FP32 (CUBLAS_DEFAULT_MATH, no TF32) on `stream`. Owns its handle.
class cublas_product {
 public:
  cublas_product();
  void run(const float* a, const float* b, float* c, std::size_t n, cudaStream_t stream);

 private:
  // cublasHandle_t is a cublasContext*: declared, not defined, so users need no cuBLAS header.
  unique_handle<cublasContext*, destroy_cublas> m_handle;
};

}  // namespace cudalab::matmul
