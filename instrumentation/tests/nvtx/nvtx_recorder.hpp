// nvtx_recorder: captures NVTX ranges in-process, through CUPTI's NVTX callbacks, and rebuilds
// them as paths ("04-coalescing/aos_float3/kernel"), so a test can assert the names and nesting
// that Nsight Systems and `ncu --nvtx-include` will see, without running either tool.
//
// How: NVTX loads the library named by NVTX_INJECTION64_PATH at its first call; pointing it at
// the libcupti this process links routes every NVTX call to CUPTI, which calls the recorder.
// Subscribe before the first NVTX call of the process (a domain created earlier is unknown to
// the recorder), and keep it the only CUPTI subscriber: CUPTI allows one per process.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab::testing {

// One push/pop range, in the order the ranges were pushed.
struct nvtx_range {
  std::string domain;       // "cudalab"; empty for NVTX's default domain
  std::string name;         // "kernel"
  std::string path;         // "04-coalescing/aos_float3/kernel": the names from the outermost range
  std::size_t depth = 0;    // 0 for an outermost range
  bool registered = false;  // the message was a registered string handle
  std::uint32_t category = 0;  // 0: none
  bool closed = false;         // popped
};

// Sets NVTX_INJECTION64_PATH to the libcupti loaded in this process (the one the recorder
// subscribes to). Returns that path. Call before the first NVTX call; throws if not found.
std::string point_nvtx_injection_at_cupti();

class nvtx_recorder {
 public:
  // Subscribes to CUPTI's NVTX callback domain; throws std::runtime_error with CUPTI's reason.
  nvtx_recorder();
  ~nvtx_recorder();
  nvtx_recorder(nvtx_recorder&&) noexcept;
  nvtx_recorder& operator=(nvtx_recorder&&) noexcept;
  nvtx_recorder(const nvtx_recorder&) = delete;  // one subscription, unsubscribed once
  nvtx_recorder& operator=(const nvtx_recorder&) = delete;

  // Every range pushed since construction or the last clear(), in push order.
  std::vector<nvtx_range> ranges() const;
  // The paths of the ranges of one domain, in push order.
  std::vector<std::string> paths(std::string_view domain) const;
  // Names of the direct children of the range at `parent_path` in `domain`, in push order.
  std::vector<std::string> children(std::string_view domain, std::string_view parent_path) const;
  // What did not add up: pops of an empty stack, unknown domain or string handles.
  std::vector<std::string> problems() const;
  // How many NVTX callbacks arrived (0: the injection is not active).
  std::size_t callbacks() const;
  // Forgets ranges and problems; keeps the domain and string handles (they are created once).
  void clear();

  struct state;

 private:
  std::unique_ptr<state> m_state;
};

}  // namespace cudalab::testing
