// NVTX ranges in the `cudalab` domain, so every launch reads well in Nsight Systems and can be
// filtered in Nsight Compute (`ncu --nvtx --nvtx-include "cudalab@04-coalescing/aos_float3/"`).
//
// Ranges wrap launchers and phases only, never device code. Each distinct message is registered
// once (nvtxDomainRegisterString) and each lab gets its own category, so the cost with no tool
// attached is one branch per range.
#pragma once

#include <nvtx3/nvtx3.hpp>

#include <string>
#include <string_view>

namespace cudalab::nvtx {

struct domain {
  static constexpr char const* name{"cudalab"};
};

// The registered handle of `message` (registered on first use, then cached).
const nvtx3::registered_string_in<domain>& registered(std::string_view message);
// The category of a lab ("04-coalescing" -> id 4, named after the lab).
nvtx3::category lab_category(std::string_view lab_id);

// A push/pop range in the cudalab domain for the lifetime of the object.
class scoped_range {
 public:
  explicit scoped_range(std::string_view message, std::string_view lab_id = {});
  ~scoped_range();
  scoped_range(const scoped_range&) = delete;  // exactly one pop per push
  scoped_range& operator=(const scoped_range&) = delete;

 private:
  bool m_active;  // a tool is attached: push/pop for real
};

// The range name of a variant: "<lab>/<variant>".
std::string variant_range_name(std::string_view lab_id, std::string_view variant);

}  // namespace cudalab::nvtx
