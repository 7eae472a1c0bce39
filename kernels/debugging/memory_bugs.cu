// Lab 07, the bugs memcheck finds: an out-of-bounds write, an index that wraps, a leak.
//
//   ramp_unguarded_kernel     out[i] = ramp(i) with no `if (i < n)`: the tail block of a ceil-div
//                             grid writes past the end of its allocation (invalid __global__
//                             write; the run keeps the overshoot inside the allocator's slack,
//                             debugging_index.cuh)
//   ramp_guarded_kernel       the same with the guard
//   byte_fill_int_index_kernel  `int i` over more than 2^31 bytes: past 2^31 the index is
//                             negative, passes the guard against a signed 64-bit n, and the
//                             write lands 2 GiB before the array
//   byte_fill_64_index_kernel the index widened before the multiply
//   table_scale_kernel        out[i] = in[i] * table[i % 256]; the leaky launcher makes its
//                             table on first use and never frees it
#include "debugging/debugging_index.cuh"
#include "debugging/debugging_kernels.cuh"

#include "cudalab/check.hpp"

#include <mutex>
#include <string>

namespace cudalab::debugging {

__global__ void ramp_unguarded_kernel(float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  (void)n;  // the bug: nothing stops the tail block at n
  out[i] = ramp_value(i);
}

__global__ void ramp_guarded_kernel(float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ramp_value(i);
}

__global__ void byte_fill_int_index_kernel(unsigned char* out, long long n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;  // unsigned product, wraps to negative
  if (i < n) out[i] = byte_value(i);
}

__global__ void byte_fill_64_index_kernel(unsigned char* out, long long n) {
  const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = byte_value(i);
}

__global__ void table_fill_kernel(float* table) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < table_entries) table[k] = table_entry(k);
}

__global__ void table_scale_kernel(const float* in, const float* table, float* out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * table[i % table_entries];
}

namespace {

dim3 grid_1d(std::size_t n, unsigned block) {
  const std::size_t blocks = n == 0 ? 1 : (n + block - 1) / block;
  if (blocks > 0x7fffffffu)
    throw usage_error("grid of " + std::to_string(blocks) + " blocks exceeds the 2^31-1 limit");
  return dim3(static_cast<unsigned>(blocks));
}

}  // namespace

launch_dims launch_ramp_unguarded(float* out, std::size_t n, unsigned block, cudaStream_t stream) {
  check_block(block);
  const launch_dims d{grid_1d(n, block), dim3(block)};
  ramp_unguarded_kernel<<<d.grid, d.block, 0, stream>>>(out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_ramp_guarded(float* out, std::size_t n, unsigned block, cudaStream_t stream) {
  check_block(block);
  const launch_dims d{grid_1d(n, block), dim3(block)};
  ramp_guarded_kernel<<<d.grid, d.block, 0, stream>>>(out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_byte_fill_int_index(unsigned char* out, std::size_t n, unsigned block,
                                       cudaStream_t stream) {
  check_block(block);
  const launch_dims d{grid_1d(n, block), dim3(block)};
  byte_fill_int_index_kernel<<<d.grid, d.block, 0, stream>>>(out, static_cast<long long>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

launch_dims launch_byte_fill_64_index(unsigned char* out, std::size_t n, unsigned block,
                                      cudaStream_t stream) {
  check_block(block);
  const launch_dims d{grid_1d(n, block), dim3(block)};
  byte_fill_64_index_kernel<<<d.grid, d.block, 0, stream>>>(out, static_cast<long long>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

void fill_table(float* table, cudaStream_t stream) {
  table_fill_kernel<<<1, table_entries, 0, stream>>>(table);
  CUDALAB_CHECK_LAUNCH();
}

launch_dims launch_table_scale(const float* in, const float* table, float* out, std::size_t n,
                               unsigned block, cudaStream_t stream) {
  check_block(block);
  const launch_dims d{grid_1d(n, block), dim3(block)};
  table_scale_kernel<<<d.grid, d.block, 0, stream>>>(in, table, out, n);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

const float* leaky_table(cudaStream_t stream) {
  // The bug: a table made on first use, kept in a static and never freed. Every use after the
  // first reuses it; the allocation outlives the program's last use of it.
  static float* table = nullptr;
  static std::once_flag made;
  std::call_once(made, [stream] {
    CUDALAB_CHECK_CUDA(cudaMalloc(reinterpret_cast<void**>(&table), table_entries * sizeof(float)));
    fill_table(table, stream);
  });
  return table;
}

launch_dims launch_table_scale_leaky(const float* in, float* out, std::size_t n, unsigned block,
                                     cudaStream_t stream) {
  return launch_table_scale(in, leaky_table(stream), out, n, block, stream);
}

}  // namespace cudalab::debugging
