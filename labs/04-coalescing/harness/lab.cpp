// Lab 04-coalescing: how the addresses of a warp's 32 lanes become memory traffic.
//
// Variants (kernels in kernels/coalescing/):
//   aos_float3         naive     one thread a float3: three 4-byte accesses 12 bytes apart,
//                                12 sectors a request
//   aos_float3_staged  fixed     the block moves its float3s as plain floats through shared
//                                memory: 4 sectors a request
//   aos_float4         fixed     padded to float4: one 16-byte access a thread (16 sectors a
//                                request, all used; a third more bytes than the payload)
//   soa                fixed     x, y, z in three arrays: 4 sectors a request
//   particles_aos      naive     one 4-byte field of 32-byte particle records: 32 sectors a
//                                request, DRAM moves 8x the bytes used
//   particles_soa      fixed     the same particles as eight arrays: 4 sectors a request
//   char_per_thread    naive     one byte a thread: 1 sector a request, 32 bytes a request
//   uchar4_packed      fixed     four bytes a thread in one access: 128 bytes a request
//   offset             sweep     float copy misaligned by 0..32 floats: 4 or 5 sectors a request
//   stride             sweep     float gather with stride 1..32: min(32, 4s) sectors a request
//   memcpy_d2d         baseline  cudaMemcpyAsync of the float3 bytes: the practical roof
//   exercise           exercise  labs/04-coalescing/exercise.cu, graded by `cudalab check 04`
// The float3 variants all do the same work (read 12 bytes, write 12 in place and 12 out a
// number), so their GB/s compare directly.
#include "coalescing_lab.hpp"
#include "coalescing_particles.hpp"
#include "coalescing_variants.hpp"

#include "coalescing/coalescing_index.cuh"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>

namespace cudalab::labs {
namespace {

// The ideal work of a variant that moves `bytes` bytes an element and does no arithmetic.
std::function<work_counts(const launch_config&)> moves_bytes_an_element(double bytes) {
  return [bytes](const launch_config& c) {
    return work_counts{bytes * static_cast<double>(c.size), 0};
  };
}

}  // namespace

variant make_coalescing_variant(coalescing_kind kind, std::string name, variant_role role,
                                std::string lesson) {
  variant v;
  switch (kind) {
    case coalescing_kind::aos_float3:
      v = make_float3_aos_variant(name, role, lesson, coalescing::launch_aos_float3_naive);
      break;
    case coalescing_kind::aos_float3_staged:
      v = make_float3_aos_variant(name, role, lesson, coalescing::launch_aos_float3_staged);
      break;
    case coalescing_kind::aos_float4:
    case coalescing_kind::soa:
      v.device_bytes = [kind](const launch_config& c) {
        return (kind == coalescing_kind::aos_float4 ? 3 * 16 : 3 * 12) * c.size;
      };
      // aos_float4's layout must move 16 bytes a number where 12 are payload: its GB/s and
      // %copy count what the layout moves (is the kernel at the roof?), the `payload` column
      // and payload_gbps what the problem needs (what the padding costs).
      v.ideal = [kind](const launch_config& c) {
        work_counts w = float3_ideal(c.size);
        if (kind == coalescing_kind::aos_float4) {
          w.payload_bytes = w.bytes;
          w.bytes *= 16.0 / 12.0;
        }
        return w;
      };
      v.prepare = [kind](const launch_config& c, cudaStream_t) {
        return prepare_float3_layout(kind, c);
      };
      break;
    case coalescing_kind::char_per_thread:
    case coalescing_kind::uchar4_packed:
      v.device_bytes = [](const launch_config& c) {
        return 2 * 4 * coalescing::packed_words(c.size);
      };
      v.ideal = moves_bytes_an_element(2.0);
      break;
    case coalescing_kind::offset:
      // Aligned, one float off, a quarter, half and three quarters of a 128-byte line:
      // `--sweep full` (or offset=0..32) runs every offset.
      v.sweep = sweep_spec{"offset", {0, 1, 8, 16, 24}, 0, max_offset};
      v.device_bytes = [](const launch_config& c) {
        return 2 * sizeof(float) * (c.size + static_cast<std::size_t>(max_offset));
      };
      v.ideal = moves_bytes_an_element(8.0);
      break;
    case coalescing_kind::stride:
      // Sectors per request grow as 4 * stride until 32: the doubling points show the curve.
      v.sweep = sweep_spec{"stride", {1, 2, 4, 8, 32}, 1, max_stride};
      // n * stride input floats (most never read) and n output floats.
      v.device_bytes = [](const launch_config& c) {
        return sizeof(float) * c.size * (static_cast<std::size_t>(std::max(c.param, 1L)) + 1);
      };
      v.ideal = moves_bytes_an_element(8.0);
      break;
  }
  if (!v.prepare)  // the byte and pattern variants (pattern_variants.cpp)
    v.prepare = [kind](const launch_config& c, cudaStream_t) { return prepare_pattern(kind, c); };
  v.name = std::move(name);
  v.role = role;
  v.lesson = std::move(lesson);
  v.predict = [kind](const launch_config& c) { return predict_coalescing(kind, c); };
  v.grid = [kind](const launch_config& c) {
    const std::uint64_t threads = coalescing_threads(kind, c.size);
    return grid_size{(threads + static_cast<std::uint64_t>(c.block) - 1) / c.block};
  };
  v.model_cost = [kind](const launch_config& c) { return coalescing_model_cost(kind, c); };
  return v;
}

lab make_lab_04_coalescing() {
  using k = coalescing_kind;
  // 8 Mi numbers: 96 MiB per float3 array (and 256 MiB of particle records), twice the 50 MB
  // L2 and more, so the timings are DRAM's; twice that doubles the host's share of the run
  // (inputs, copies back, verification) for no new lesson. --size 2^24 and up for benchmarks.
  lab l =
      new_lab("04-coalescing", "Coalescing: how a warp's 32 addresses become requests and sectors",
              "elements", {std::size_t{1} << 23});
  l.headline_metrics = {"ld_sectors_per_request", "st_sectors_per_request", "dram_per_ideal"};
  // The shared-memory traffic beside the global one, so that tiles' bank behaviour is visible.
  l.default_metrics = {"memory", "shared_ld_wavefronts", "shared_st_wavefronts",
                       "shared_ld_conflicts", "shared_st_conflicts"};
  // One variant a line, so that the list reads as the table it is.
  // clang-format off
  l.variants = {
      make_coalescing_variant(k::aos_float3, "aos_float3", variant_role::naive, "one thread a float3: 3 loads 12 bytes apart, 12 sectors a request"),
      make_coalescing_variant(k::aos_float3_staged, "aos_float3_staged", variant_role::fixed, "move the block's float3s as plain floats through shared memory: 4 sectors a request"),
      make_coalescing_variant(k::aos_float4, "aos_float4", variant_role::fixed, "pad to float4: one 16-byte access a thread, but 4 bytes in 16 are padding"),
      make_coalescing_variant(k::soa, "soa", variant_role::fixed, "structure of arrays: x, y and z each coalesced, 4 sectors a request"),
      make_particle_variant(particle_layout::aos, "particles_aos", variant_role::naive, "one float of each 32-byte particle record: 32 sectors a request, 4 bytes used in each"),
      make_particle_variant(particle_layout::soa, "particles_soa", variant_role::fixed, "the same particles as one array a field: the charges alone, 4 sectors a request"),
      make_coalescing_variant(k::char_per_thread, "char_per_thread", variant_role::naive, "one byte a thread: no sector wasted, but a request moves only 32 bytes"),
      make_coalescing_variant(k::uchar4_packed, "uchar4_packed", variant_role::fixed, "four bytes a thread in one access: a quarter of the requests"),
      make_coalescing_variant(k::offset, "offset", variant_role::naive, "copy misaligned by `offset` floats: a fifth sector a request unless offset % 8 == 0"),
      make_coalescing_variant(k::stride, "stride", variant_role::naive, "gather in[i*stride]: min(32, 4*stride) sectors a request, 128 bytes used"),
      make_memcpy_variant(),
      make_coalescing_exercise_variant(),
  };
  // clang-format on
  exercise_spec ex = new_exercise(l.id, std::size_t{1} << 22, grade_coalescing);
  ex.reference_variants = {"aos_float3_staged", "aos_float4", "soa"};
  ex.extra_metrics = coalescing_grade_metrics();
  // The float3 problem's own variants; the byte and pattern variants solve other problems.
  ex.graded_variants = {"aos_float3", "aos_float3_staged", "aos_float4", "soa"};
  ex.bound_other_memory_paths = true;
  // The slowest of the references: a staged kernel that waits on itself would pass the others.
  ex.speed_reference = "aos_float3_staged";
  ex.untouched_fails_on = {"ld_sectors_per_request", "st_sectors_per_request", "sectors"};
  ex.wrong_ways = {
      {"byte_staged", "requests", "32 bytes a request: four times the requests"},
      {"atomic_loads", "other_memory_paths", "the float3 read through global atomics"},
      {"cached_answer", "correct", "the first launch's answer replayed by a copy kernel"},
      {"idle_timed_launches", "correct", "a slow kernel that skips three timed launches"}};
  ex.right_ways = {
      {"cp_async_staged", "", "the staged tile filled by 4-byte cp.async"},
      {"cp_async_16_bytes", "", "the staged tile filled by 16-byte cp.async"},
      {"warp_shuffle_float3", "", "coalesced floats redistributed with warp shuffles"}};
  l.exercise = ex;
  return l;
}

}  // namespace cudalab::labs
