// Index arithmetic of lab 04, shared by the kernels (device) and the access model (host).
//
// Every kernel of kernels/coalescing computes its addresses with these functions, and the lab's
// predictions (labs/04-coalescing/harness/coalescing_model.cpp) call the same functions for every
// lane of every warp. Change an index here and both sides change together: the model cannot drift
// from the code it predicts.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::coalescing {

// A float3 is three floats; the AoS array of n float3 is the flat array of 3n floats.
inline constexpr unsigned float3_components = 3;

// The element of a thread in a 1D launch: blockIdx.x * blockDim.x + threadIdx.x.
__host__ __device__ inline std::size_t element_index(std::size_t block, unsigned block_threads,
                                                     unsigned thread) {
  return block * block_threads + thread;
}

// Array of structures: component c (0 = x, 1 = y, 2 = z) of float3 number i is float 3i + c of
// the flat array. Consecutive lanes (i, i+1) touch floats 12 bytes apart.
__host__ __device__ inline std::size_t aos_float_index(std::size_t i, unsigned c) {
  return std::size_t{float3_components} * i + c;
}

// Staging through shared memory. A block of T threads owns float3 numbers [bT, bT + T), which
// are floats [3bT, 3bT + 3T) of the flat array. It moves them in three passes; in pass p
// thread t moves float 3bT + pT + t, so a warp moves 32 consecutive floats (coalesced).
__host__ __device__ inline std::size_t staged_global_float(std::size_t block,
                                                           unsigned block_threads, unsigned pass,
                                                           unsigned thread) {
  return std::size_t{float3_components} * block * block_threads +
         std::size_t{pass} * block_threads + thread;
}
// ... and puts it in word pT + t of the block's tile (3T floats of shared memory), so the tile
// holds the block's float3 numbers in AoS order: thread t's number is at words 3t, 3t+1, 3t+2
// (aos_float_index(t, c)), a stride of 3 words: banks 3t mod 32 are distinct for 32
// consecutive t because gcd(3, 32) = 1, so the component reads are conflict-free.
__host__ __device__ inline unsigned staged_tile_word(unsigned pass, unsigned block_threads,
                                                     unsigned thread) {
  return pass * block_threads + thread;
}
// Shared memory a staged block needs: 3 floats a thread.
__host__ __device__ inline std::size_t staged_tile_bytes(unsigned block_threads) {
  return std::size_t{float3_components} * block_threads * sizeof(float);
}

// Misaligned copy: element i of the copy lives at index i + offset of input and output.
__host__ __device__ inline std::size_t offset_index(std::size_t i, unsigned offset) {
  return i + offset;
}

// Strided gather: output element i comes from input element i * stride.
__host__ __device__ inline std::size_t stride_index(std::size_t i, unsigned stride) {
  return i * stride;
}

// Packed bytes: thread j handles the 4-byte word j, bytes 4j .. 4j+3. Buffers of n bytes are
// allocated rounded up to whole words, so the last thread never needs a byte-wise tail.
__host__ __device__ inline std::size_t packed_words(std::size_t n_bytes) {
  return (n_bytes + 3) / 4;
}

// The work every float3 variant does on one component, and every byte variant on one byte.
__host__ __device__ inline float add_value(float x, float v) { return x + v; }
__host__ __device__ inline unsigned char add_byte(unsigned char b, unsigned char k) {
  return static_cast<unsigned char>(b + k);  // wraps modulo 256
}

}  // namespace cudalab::coalescing
