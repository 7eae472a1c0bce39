// Lab 04 exercise: make the float3 update coalesced.
//
// exercise_float3_kernel adds v to x, y and z of every float3 in `data` (in place) and copies
// the updated number to `out`, exactly like the naive aos_float3 variant. As written, each of
// its loads and stores spreads a warp's 32 lanes over 384 bytes (12 sectors a request).
//
// YOUR TASK: rewrite the kernel (and, if you need shared memory, the launcher below) so that
// every warp-level global load and store touches 32 consecutive floats: 4 sectors a request.
//   - Keep the data layout: `data` and `out` stay arrays of n float3 (you may view them as 3n
//     floats; sizeof(float3) is 12).
//   - Keep one thread per float3 number and the launch shape: blocks of blockDim.x threads,
//     (n + blockDim.x - 1) / blockDim.x blocks. Your kernel must work for any block size and
//     for n that is not a multiple of the block.
//   - Hint: the numbers of one block are 3 * blockDim.x consecutive floats. Who says the thread
//     that loads a float must be the thread that updates it? Shared memory can hand it over.
//
// Build (cmake --build build/release), then:
//   build/release/tools/cudalab/cudalab run 04-coalescing --variant exercise,aos_float3_staged
//   build/release/tools/cudalab/cudalab check 04-coalescing
// `check` runs your kernel beside aos_float3_staged, aos_float4 and soa with hardware counters and
// passes it only when it is correct, no load or store request touches more sectors than its bytes
// fill (a cp.async counts as the global load it is), its total sectors are no more than the ideal
// (every byte it reads or writes is used), its requests carry a warp of floats (128 bytes) or more
// on average, its median time is at most 2 x aos_float3_staged's, timed in the same run (a floor,
// not a race), it takes no other memory path (atomics, reductions, texture, surfaces, generic
// LD/ST, TMA, shared atomics, matrix loads and stores, another block's shared memory), and its
// launch runs only your own kernels (no library's) and no cudaMemcpy or cudaMemset.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {

__global__ void exercise_float3_kernel(float3* data, float3* out, std::size_t n, float v) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    data[i].x += v;
    data[i].y += v;
    data[i].z += v;
    out[i] = data[i];
  }
}

namespace {

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  const std::size_t shared_bytes = 0;  // bytes of dynamic shared memory a block gets
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block, shared_bytes);
  exercise_float3_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "your float3 update (labs/04-coalescing/exercise.cu)",
                                 launch_exercise);
}

}  // namespace cudalab::labs
