// Index arithmetic and per-element values of lab 07, shared by the kernels (device) and the
// harness's CPU references (host), so a reference cannot drift from what a kernel means to do.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cudalab::debugging {

// The value the ramp kernels write at element i: exact in float, never the 0xFF poison.
__host__ __device__ inline float ramp_value(std::size_t i) {
  return static_cast<float>(i & 0xFFFFu) + 0.5f;
}

// The byte the overflow kernels write at element i: 1..255, never the 0 poison.
__host__ __device__ inline unsigned char byte_value(std::int64_t i) {
  return static_cast<unsigned char>(i % 255 + 1);
}

// The 3-point blur reads its neighbours clamped to the array: element 0's left neighbour is
// itself, and so is element n-1's right one. Threads past the end load element n-1.
__host__ __device__ inline std::size_t clamped(std::size_t i, std::size_t n) {
  return i < n ? i : n - 1;
}
__host__ __device__ inline std::size_t left_of(std::size_t i) { return i == 0 ? 0 : i - 1; }
__host__ __device__ inline float blur3(float left, float middle, float right) {
  return (left + middle + right) * (1.0f / 3.0f);
}

// The pair exchange: even elements take 3 x their right neighbour, odd ones 2 x their left.
__host__ __device__ inline float pair_scaled(float x, std::size_t i) {
  return i % 2 == 0 ? 2.0f * x : 3.0f * x;
}

// The rows x cols matrix of the 2D variants: about `size` elements, twice as wide as tall, so
// that swapping row and column is never harmless.
struct matrix_shape {
  std::size_t rows = 0, cols = 0;
  std::size_t elements() const { return rows * cols; }
};
__host__ __device__ inline matrix_shape matrix_for(std::size_t size) {
  std::size_t rows = 1;
  while ((rows + 1) * (rows + 1) * 2 <= size) ++rows;
  return {rows, 2 * rows};
}
// What out[row][col] holds: the input scaled, plus its row, so a misplaced element shows.
__host__ __device__ inline float scaled_plus_row(float x, std::size_t row) {
  return 2.0f * x + static_cast<float>(row);
}

// The multiplier table of the lookup variants: entry k of table_entries.
inline constexpr unsigned table_entries = 256;
__host__ __device__ inline float table_entry(unsigned k) { return 1.0f + 0.125f * (k % 8); }

// The chunk of the staged reverse: 16384 floats of dynamic shared memory a block, 64 KiB,
// more than the 48 KiB a launch may ask for without opting in.
inline constexpr unsigned reverse_chunk = 16384;
inline constexpr std::size_t reverse_chunk_bytes = reverse_chunk * sizeof(float);

// Bins of the histogram variants: one per byte value.
inline constexpr unsigned histogram_bins = 256;

// Observed on the H100 and H200 (driver 580.159.04), not documented by NVIDIA: the allocator
// maps an allocation of 2 MiB or more in whole 2 MiB pages, so the rest of its last page is
// mapped and belongs to no one else. The kernels that write
// past their array (oob_write and the exercise) run only where the tail block's overshoot
// stays inside that slack: memcheck sees every such write, and none can fault or land in
// another buffer. docs/debugging.md explains it.
inline constexpr std::size_t allocator_page = std::size_t{2} << 20;
__host__ __device__ inline bool overshoot_fits_page_slack(std::size_t bytes,
                                                          std::size_t overshoot) {
  if (bytes < allocator_page) return false;
  const std::size_t used = bytes % allocator_page;
  return used != 0 && allocator_page - used >= overshoot;
}

}  // namespace cudalab::debugging
