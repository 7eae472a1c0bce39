// The tracer's device callbacks, compiled as a tools patch (nvcc --fatbin --keep-device-functions
// -Xptxas --compile-as-tools-patch) and inserted by the Compute Sanitizer API before every global
// and shared memory instruction of the traced program, and before every asynchronous copy from
// global to shared memory (cp.async, LDGSTS), which the API reports apart (tracer_injection.cpp).
//
// The lanes of a warp that call a callback together at the same pc are one warp-level access.
// They fold themselves into the access model's counts with shuffles (cudalab/trace/lane_fold.hpp),
// and the group's first lane adds the result to the pc's slot of the launch's table
// (cudalab/trace/device_table.hpp). A tools patch may not use redux (__reduce_*_sync): every
// reduction here is a shuffle loop.
#include "cudalab/trace/device_table.hpp"
#include "cudalab/trace/lane_fold.hpp"

#include <sanitizer_patching.h>

#include <cstdint>

namespace {

using namespace cudalab::trace;

__device__ __forceinline__ int lane_id() {
  int lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__device__ __forceinline__ std::uint32_t pc_hash(std::uint64_t pc) {
  return static_cast<std::uint32_t>((pc >> 4) * 2654435761u);
}

// The pc's slot, inserted when new; nullptr when the table is full (counted as dropped).
__device__ table_slot* slot_for(table_header* header, std::uint64_t pc, std::uint64_t info) {
  auto* slots = reinterpret_cast<table_slot*>(header + 1);
  const std::uint32_t mask = header->capacity - 1;
  std::uint32_t i = pc_hash(pc) & mask;
  for (std::uint32_t probe = 0; probe < header->capacity; ++probe, i = (i + 1) & mask) {
    const unsigned long long seen =
        atomicCAS(&slots[i].pc, 0ull, static_cast<unsigned long long>(pc));
    if (seen == 0) {
      atomicExch(&slots[i].info, static_cast<unsigned long long>(info));
      return &slots[i];
    }
    if (seen == pc) return &slots[i];
  }
  atomicAdd(&header->dropped, 1u);
  return nullptr;
}

// An atomic reads and writes, or (a reduction, RED) writes without a value to show: the API
// passes no pData for atomics, while a plain store's pData points at the value stored.
__device__ std::uint64_t info_of(bool shared, std::uint32_t flags, std::uint32_t width,
                                 const void* data) {
  std::uint64_t info = static_cast<std::uint64_t>(width) << info_width_shift;
  if (shared) info |= info_shared;
  const bool reads = flags & SANITIZER_MEMORY_DEVICE_FLAG_READ;
  const bool writes = flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE;
  if ((flags & SANITIZER_MEMORY_DEVICE_FLAG_ATOMSYS) || (reads && writes) ||
      (writes && data == nullptr))
    info |= info_atomic;
  else if (writes)
    info |= info_store;
  return info;
}

}  // namespace

extern "C" __device__ __noinline__ SanitizerPatchResult cudalab_trace_global(
    void* userdata, uint64_t pc, void* ptr, uint32_t width, uint32_t flags, const void* data) {
  auto* header = static_cast<table_header*>(userdata);
  if (header == nullptr || header->enabled == 0) return SANITIZER_PATCH_SUCCESS;
  if (flags & SANITIZER_MEMORY_DEVICE_FLAG_PREFETCH) return SANITIZER_PATCH_SUCCESS;
  const std::uint32_t active = __activemask();
  const std::uint32_t group = __match_any_sync(active, pc);
  const int lane = lane_id();
  const std::uint64_t sector = sector_of(reinterpret_cast<std::uint64_t>(ptr));
  const bool first =
      first_in_sector(lane, sector, group, [&](int j) { return __shfl_sync(active, sector, j); });
  const std::uint32_t firsts = __ballot_sync(active, first) & group;
  if (lane != __ffs(group) - 1) return SANITIZER_PATCH_SUCCESS;
  table_slot* slot = slot_for(header, pc, info_of(false, flags, width, data));
  if (slot == nullptr) return SANITIZER_PATCH_SUCCESS;
  atomicAdd(&slot->instructions, 1ull);
  atomicAdd(&slot->sectors, static_cast<unsigned long long>(popcount32(firsts)));
  atomicAdd(&slot->bytes, static_cast<unsigned long long>(popcount32(group)) * width);
  return SANITIZER_PATCH_SUCCESS;
}

extern "C" __device__ __noinline__ SanitizerPatchResult cudalab_trace_shared(
    void* userdata, uint64_t pc, void* ptr, uint32_t width, uint32_t flags, const void* data) {
  auto* header = static_cast<table_header*>(userdata);
  if (header == nullptr || header->enabled == 0) return SANITIZER_PATCH_SUCCESS;
  const std::uint32_t active = __activemask();
  const std::uint32_t group = __match_any_sync(active, pc);
  const int lane = lane_id();
  const std::uint64_t word = first_word(reinterpret_cast<std::uint64_t>(ptr));
  const std::uint32_t first =
      first_words(lane, word, group, width, [&](int j) { return __shfl_sync(active, word, j); });
  const bool load =
      (flags & SANITIZER_MEMORY_DEVICE_FLAG_READ) && !(flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE);
  const std::uint32_t busiest = busiest_own_bank(
      lane, word, first, group, width, load, [&](int j) { return __shfl_sync(active, word, j); },
      [&](int j) { return __shfl_sync(active, first, j); });
  const std::uint32_t phase_max = phase_wavefronts(
      lane, group, width, load, [&](int j) { return __shfl_sync(active, busiest, j); });
  // Every lane runs this shuffle loop, whatever its width: lanes of another pc share `active`.
  const bool uniform =
      half_reads_one_word(lane, word, group, [&](int j) { return __shfl_sync(active, word, j); });
  const bool leader = leads_phase(lane, group, width, load);
  const phase_cost own =
      leader ? cost_of_phase(lane, group, width, load, phase_max, uniform) : phase_cost{};
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal = 0;
  for (int j = 0; j < fold_warp_size; ++j) {
    const std::uint32_t other_wavefronts = __shfl_sync(active, own.wavefronts, j);
    const std::uint32_t other_ideal = __shfl_sync(active, own.ideal, j);
    if (lane_in(group, j)) {
      wavefronts += other_wavefronts;
      ideal += other_ideal;
    }
  }
  if (lane != __ffs(group) - 1) return SANITIZER_PATCH_SUCCESS;
  table_slot* slot = slot_for(header, pc, info_of(true, flags, width, data));
  if (slot == nullptr) return SANITIZER_PATCH_SUCCESS;
  atomicAdd(&slot->instructions, 1ull);
  atomicAdd(&slot->bytes, static_cast<unsigned long long>(popcount32(group)) * width);
  atomicAdd(&slot->wavefronts, static_cast<unsigned long long>(wavefronts));
  atomicAdd(&slot->ideal, static_cast<unsigned long long>(ideal));
  return SANITIZER_PATCH_SUCCESS;
}

// cp.async (LDGSTS): a global load, as the access model and the counters take it (its write to
// shared memory is the LDGSTS's own, not a shared store). A lane copying nothing (a src-size of
// 0, `src` null) reads no global memory: it adds neither sectors nor bytes.
extern "C" __device__ __noinline__ SanitizerPatchResult
cudalab_trace_memcpy_async(void* userdata, uint64_t pc, void* src, uint32_t dst, uint32_t width) {
  (void)dst;
  auto* header = static_cast<table_header*>(userdata);
  if (header == nullptr || header->enabled == 0) return SANITIZER_PATCH_SUCCESS;
  const std::uint32_t active = __activemask();
  const std::uint32_t group = __match_any_sync(active, pc);
  const int lane = lane_id();
  const std::uint32_t readers = __ballot_sync(active, src != nullptr) & group;
  const std::uint64_t sector = sector_of(reinterpret_cast<std::uint64_t>(src));
  // Every lane runs the shuffle loop: lanes of another pc share `active`.
  const bool first = first_in_sector(lane, sector, readers,
                                     [&](int j) { return __shfl_sync(active, sector, j); }) &&
                     src != nullptr;
  const std::uint32_t firsts = __ballot_sync(active, first) & readers;
  if (lane != __ffs(group) - 1 || readers == 0) return SANITIZER_PATCH_SUCCESS;
  table_slot* slot =
      slot_for(header, pc, info_of(false, SANITIZER_MEMORY_DEVICE_FLAG_READ, width, src));
  if (slot == nullptr) return SANITIZER_PATCH_SUCCESS;
  atomicAdd(&slot->instructions, 1ull);
  atomicAdd(&slot->sectors, static_cast<unsigned long long>(popcount32(firsts)));
  atomicAdd(&slot->bytes, static_cast<unsigned long long>(popcount32(readers)) * width);
  return SANITIZER_PATCH_SUCCESS;
}
