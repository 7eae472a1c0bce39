// The access model: a CPU simulation of the global-memory coalescer and of shared-memory banks.
//
// Pure C++ (no CUDA), so it runs and is tested everywhere. A variant feeds it one warp-level
// instruction at a time (the 32 lanes' byte addresses, the access width, the memory space and
// whether it loads or stores); the model folds them into the counts that the hardware counters
// measure (docs/access_model.md):
//   global: one request per warp instruction with an active lane; sectors = distinct 32-byte
//           aligned segments touched by the active lanes;
//   shared: 32 banks of 4 bytes; wavefronts = the most distinct words any one bank must serve
//           (a word read by several lanes is broadcast); conflicts = wavefronts - ideal
//           wavefronts; 8-byte accesses are processed in half-warp phases, 16-byte stores in
//           quarter-warp phases, and 16-byte loads by the measured half-warp rule
//           (docs/counters.md).
#pragma once

#include "cudalab/model/sass_warp_walk.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace cudalab::model {

inline constexpr int warp_size = 32;
inline constexpr int sector_bytes = 32;
inline constexpr int shared_banks = 32;
inline constexpr int bank_bytes = 4;
// Address of a lane that does not take part in the instruction (inactive or predicated off).
inline constexpr std::uint64_t inactive_lane = ~std::uint64_t{0};

// Model base address of a lab's buffer number `buffer`: cudaMalloc returns 256-byte aligned
// memory; separate allocations are modelled 2^40 bytes apart so that no two share a sector.
inline std::uint64_t buffer_base(unsigned buffer) { return std::uint64_t{buffer} << 40; }

// local: a thread's private memory (LDL/STL), coalesced like global memory; the caller gives
// each lane's byte address in the hardware's interleaved layout (docs/metrics.md).
enum class memory_space { global, shared, local };
enum class access_kind { load, store };

// One warp-level memory instruction.
struct warp_access {
  memory_space space = memory_space::global;
  access_kind kind = access_kind::load;
  unsigned width_bytes = 4;                        // 1, 2, 4, 8 or 16 bytes a lane
  std::array<std::uint64_t, warp_size> address{};  // byte address per lane, or inactive_lane

  // A warp whose lanes are all inactive (fill `address` before use).
  static warp_access make(memory_space space, access_kind kind, unsigned width_bytes);
};

// The indexed constant cache (LDC with a register address) of a launch, where the lab models it
// (lab 02): constant loads whose lanes asked for more than one address, and the passes beyond
// the first that those took (distinct addresses - 1 each).
struct constant_cache_counts {
  std::uint64_t divergent_instructions = 0;
  std::uint64_t replays = 0;
  friend bool operator==(const constant_cache_counts& a, const constant_cache_counts& b) {
    return a.divergent_instructions == b.divergent_instructions && a.replays == b.replays;
  }
};

// What the model predicts; every field is a count the hardware reports exactly (shared memory
// through the SASS-level counters; docs/counters.md).
struct access_counts {
  std::uint64_t global_ld_requests = 0;
  std::uint64_t global_ld_sectors = 0;
  std::uint64_t global_st_requests = 0;
  std::uint64_t global_st_sectors = 0;
  std::uint64_t global_ld_bytes = 0;  // bytes the active lanes asked for (useful bytes)
  std::uint64_t global_st_bytes = 0;
  std::uint64_t shared_ld_instructions = 0;  // warp instructions with an active lane
  std::uint64_t shared_st_instructions = 0;
  std::uint64_t shared_ld_wavefronts = 0;
  std::uint64_t shared_st_wavefronts = 0;
  std::uint64_t shared_ld_conflicts = 0;
  std::uint64_t shared_st_conflicts = 0;
  std::uint64_t local_ld_requests = 0;
  std::uint64_t local_ld_sectors = 0;
  std::uint64_t local_st_requests = 0;
  std::uint64_t local_st_sectors = 0;
  // Set by a model whose kernels issue no shared load with every lane off, so that
  // shared_ld_instructions is also what the shared_ld_inst counter counts (it counts
  // predicated-off instructions too): the counter is then held to it exactly. A sum keeps it
  // when either side has it (the lab models every kernel it sums).
  bool shared_ld_inst_exact = false;
  // Instructions and branches, where the lab has an instruction model (a walk through the
  // kernel's SASS). Summing keeps them only when both sides have them: a total with one
  // unpredicted kernel is not a prediction.
  std::optional<sass::instruction_counts> instructions;
  // The constant cache, where the lab models it; summed like `instructions`.
  std::optional<constant_cache_counts> constant_cache;

  access_counts& operator+=(const access_counts& other);
  friend access_counts operator+(access_counts a, const access_counts& b) { return a += b; }
  friend bool operator==(const access_counts& a, const access_counts& b);
  friend bool operator!=(const access_counts& a, const access_counts& b) { return !(a == b); }
  // The counts of `times` repetitions of these (every field, instructions included).
  access_counts scaled(std::uint64_t times) const;

  // The counts keyed by the catalogue's short metric names: cudalab::model_values() (metrics.hpp).
};

// The counts of one warp instruction.
access_counts count_warp_access(const warp_access& access);

// How many warp_access values warp_access::make has built on the calling thread. Every warp a
// lab's model simulates is built through make, so the difference across a prediction is the
// work that prediction did: what a variant's cost estimate must account for.
std::uint64_t warp_accesses_built_on_this_thread() noexcept;

// Accumulates warp instructions.
class access_model {
 public:
  void record(const warp_access& access) { m_counts += count_warp_access(access); }
  // Adds `times` identical instructions (a loop body that repeats the same pattern).
  void record(const warp_access& access, std::uint64_t times);
  const access_counts& counts() const noexcept { return m_counts; }

 private:
  access_counts m_counts;
};

}  // namespace cudalab::model
