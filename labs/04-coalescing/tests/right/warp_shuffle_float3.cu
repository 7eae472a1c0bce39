// A right way to do lab 04's exercise, kept as a test input for the grader: the float3 update
// made coalesced by warp shuffles instead of a shared tile. A warp's numbers are 3 x 32
// consecutive floats. The warp loads them in three passes of 32 consecutive floats (lane k
// reads float 32 p + k in pass p: 4 sectors a request), so float q of the warp sits in lane
// q % 32, in the register of pass q / 32. Each lane then fetches its own number's floats 3k,
// 3k + 1 and 3k + 2 from the lanes that hold them with __shfl_sync, adds v, and the same
// exchange run the other way hands lane k float 32 p + k of each pass again, to store to data
// and to out as the loads read them. The floats change hands in registers: no shared memory, no
// __syncthreads(). A warp of fewer threads (blockDim.x not a multiple of 32) uses its own width
// for the 32; in the tail warp every lane takes part in the shuffles, but only floats before
// 3n are loaded or stored.
// The grader must pass it: its global accesses are the staged solution's (3 LDG.E and 6 STG.E
// of 4 bytes a thread, 32 consecutive floats a warp), a shuffle is no memory path, and 18
// shuffles a thread cost little beside the memory traffic of a bandwidth-bound update. In its
// SASS the mask, not known at compile time, brings a second copy of the exchange for a warp
// that reaches it diverged (BRA.DIV to WARPSYNC.COLLECTIVE), which nothing here causes.
#include "coalescing_lab.hpp"

#include "cudalab/check.hpp"

namespace cudalab::labs {
namespace {

// What one warp of the launch covers, as floats of the float3 array.
struct warp_floats {
  std::size_t first = 0;  // the warp's first float: 3 x its first thread's number
  unsigned width = 0;     // its threads: 32, or fewer in the last warp of an odd-sized block
  unsigned count = 0;     // its floats, 3 a number: fewer than 3 x width in the tail warp
  unsigned mask = 0;      // its threads, for __shfl_sync: it may name no lane that doesn't exist
};

__device__ warp_floats this_warps_floats(std::size_t n) {
  const unsigned first_thread = threadIdx.x - threadIdx.x % 32;
  const std::size_t first_number = static_cast<std::size_t>(blockIdx.x) * blockDim.x + first_thread;
  const unsigned width = min(32u, blockDim.x - first_thread);
  const unsigned numbers =
      first_number < n ? static_cast<unsigned>(min(std::size_t{width}, n - first_number)) : 0;
  const unsigned mask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  return {3 * first_number, width, 3 * numbers, mask};
}

// Register `which` (0, 1 or 2) of lane `from`. A shuffle sends the same register from every
// lane, and lanes want different ones, so all three are sent and the lane keeps its own: a
// register has no index a lane could compute.
__device__ float shuffle_one_of_three(const float (&held)[3], unsigned from, unsigned which,
                                      unsigned mask) {
  const float first = __shfl_sync(mask, held[0], from);
  const float second = __shfl_sync(mask, held[1], from);
  const float third = __shfl_sync(mask, held[2], from);
  return which == 0 ? first : which == 1 ? second : third;
}

__global__ void warp_shuffle_float3_kernel(float3* data, float3* out, std::size_t n, float v) {
  const warp_floats w = this_warps_floats(n);
  if (w.count == 0) return;  // the whole warp lies past n
  float* flat = reinterpret_cast<float*>(data);
  float* flat_out = reinterpret_cast<float*>(out);
  const unsigned lane = threadIdx.x % 32;

  // Pass p: lane k loads the warp's float p * width + k. Coalesced.
  float passes[3];
#pragma unroll
  for (unsigned p = 0; p < 3; ++p) {
    const unsigned q = p * w.width + lane;
    passes[p] = q < w.count ? flat[w.first + q] : 0.0f;
  }

  // Lane k's number is the warp's floats 3k, 3k + 1, 3k + 2; float q is in lane q % width,
  // pass q / width.
  float number[3];
#pragma unroll
  for (unsigned c = 0; c < 3; ++c) {
    const unsigned q = 3 * lane + c;
    number[c] = shuffle_one_of_three(passes, q % w.width, q / w.width, w.mask) + v;
  }

  // Back the other way: float q of pass p is component q % 3 of lane q / 3's number. Stored as
  // loaded, lane k writing float p * width + k. Coalesced.
#pragma unroll
  for (unsigned p = 0; p < 3; ++p) {
    const unsigned q = p * w.width + lane;
    const float x = shuffle_one_of_three(number, q / 3, q % 3, w.mask);
    if (q < w.count) {
      flat[w.first + q] = x;
      flat_out[w.first + q] = x;
    }
  }
}

coalescing::launch_dims launch_exercise(float3* data, float3* out, std::size_t n, float v,
                                        unsigned block, cudaStream_t stream) {
  const coalescing::launch_dims d = coalescing::one_thread_each(n, block);  // no shared memory
  warp_shuffle_float3_kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(data, out, n, v);
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace

variant make_coalescing_exercise_variant() {
  return make_float3_aos_variant("exercise", variant_role::exercise,
                                 "right way: float3s handed between lanes by warp shuffles",
                                 launch_exercise);
}

}  // namespace cudalab::labs
