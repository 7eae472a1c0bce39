// Lab 04's pieces, exposed for the lab's tests, its exercise and its solution.
#pragma once

#include "coalescing/coalescing_kernels.cuh"

#include "cudalab/lab.hpp"
#include "cudalab/runner.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace cudalab::labs {

// Every variant with a model, by the kernel it runs.
enum class coalescing_kind {
  aos_float3,         // naive: one thread a float3, three 4-byte accesses 12 bytes apart
  aos_float3_staged,  // fixed: staged through shared memory as plain floats
  aos_float4,         // fixed: padded to float4, one 16-byte access
  soa,                // fixed: three float arrays
  char_per_thread,    // naive: one byte a thread
  uchar4_packed,      // fixed: four bytes a thread in one access
  offset,             // sweep: float copy misaligned by param floats
  stride,             // sweep: float gather with a stride of param floats
};

// What every float3 variant adds to each component, and every byte variant to each byte.
inline constexpr float float3_update_value = 1.25f;
inline constexpr unsigned char byte_update_value = 37;
// Sweep bounds: the offset copy allocates this many spare floats.
inline constexpr long max_offset = 32;
inline constexpr long max_stride = 32;

// Model base addresses: cudaMalloc returns 256-byte aligned memory; separate allocations are
// modelled 2^40 bytes apart so that no two buffers share a sector.
inline std::uint64_t model_buffer_base(unsigned buffer) { return std::uint64_t{buffer} << 40; }

// The access model's counts for one variant, walking the launch warp by warp with the kernel's
// own index functions (kernels/coalescing/coalescing_index.cuh).
// Whole blocks repeat, so it walks one block of each repeating class and the partial last one.
model::access_counts predict_coalescing(coalescing_kind kind, const launch_config& c);
// The same by walking every block: the reference the tests hold the shortcut to.
model::access_counts predict_coalescing_every_block(coalescing_kind kind, const launch_config& c);
// The warp instructions predict_coalescing simulates for `c` (its cost, for the model budget).
double coalescing_model_cost(coalescing_kind kind, const launch_config& c);

// The threads a variant's launch covers (one per float3, byte, word or float).
std::size_t coalescing_threads(coalescing_kind kind, std::size_t size);

// A float3 update variant over the AoS layout (data updated in place, copied to out), run by
// `launcher`. aos_float3, aos_float3_staged and the exercise share it; `predict` is left empty.
using float3_launcher = coalescing::launch_dims (*)(float3* data, float3* out, std::size_t n,
                                                    float v, unsigned block, cudaStream_t stream);
variant make_float3_aos_variant(std::string name, variant_role role, std::string lesson,
                                float3_launcher launcher);
// The other float3 layouts and the byte and pattern variants, each with its model.
variant make_coalescing_variant(coalescing_kind kind, std::string name, variant_role role,
                                std::string lesson);
// The practical roof: cudaMemcpyAsync device to device of the float3 array's bytes.
variant make_memcpy_variant();

// Ideal work of the float3 family: read 12 bytes, write 12 bytes in place and 12 bytes out a
// number; padding (float4's w) is not useful work.
work_counts float3_ideal(std::size_t n);
// Ideal 32-byte sectors for that work: each buffer's useful bytes rounded up to whole sectors
// (cudaMalloc bases are 256-byte aligned): ld = ceil(12n/32), st = 2 ceil(12n/32).
std::uint64_t float3_ideal_ld_sectors(std::size_t n);
std::uint64_t float3_ideal_st_sectors(std::size_t n);

// The exercise variant: defined by exercise.cu (the learner's kernel) or solution.cu.
variant make_coalescing_exercise_variant();

// `cudalab check 04-coalescing`: PASS only when the exercise verifies, each of its load and
// store requests touches no more sectors than its requested bytes fill (any access width),
// its total sectors are no more than the ideal sector count of its layout, and its requests
// no more than a quarter of those sectors (128 bytes or more a request).
grade_report grade_coalescing(const result_row& exercise,
                              const std::vector<result_row>& references);
// The metrics grade_coalescing needs beyond the lab's default set: the bytes the load and
// store instructions asked for.
std::vector<std::string> coalescing_grade_metrics();

lab make_lab_04_coalescing();

}  // namespace cudalab::labs
