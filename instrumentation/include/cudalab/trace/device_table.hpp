// The memory the tracer's patch writes during one traced launch and the injection library reads
// after it: a header and an open-addressed table of per-pc totals. Plain data, shared by the
// patch (device code) and the injection library (host code).
#pragma once

#include <cstdint>

namespace cudalab::trace {

// slot_info bits: the space, the kind and the width of the instruction at the slot's pc.
inline constexpr std::uint32_t info_shared = 1u << 0;
inline constexpr std::uint32_t info_store = 1u << 1;
inline constexpr std::uint32_t info_atomic = 1u << 2;
inline constexpr std::uint32_t info_width_shift = 8;

struct table_header {
  std::uint32_t enabled;   // 0: the launch is not traced, the patch returns at once
  std::uint32_t capacity;  // slots after the header (a power of two)
  std::uint32_t dropped;   // accesses whose pc found no free slot
  std::uint32_t unused;
};

struct table_slot {
  unsigned long long pc;  // 0: free
  unsigned long long info;
  unsigned long long instructions;  // warp-level accesses (requests, for global memory)
  unsigned long long sectors;
  unsigned long long bytes;
  unsigned long long wavefronts;
  unsigned long long ideal;
  unsigned long long unused;
};

inline constexpr std::uint32_t table_capacity = 8192;
inline constexpr std::uint64_t table_bytes =
    sizeof(table_header) + std::uint64_t{table_capacity} * sizeof(table_slot);

}  // namespace cudalab::trace
