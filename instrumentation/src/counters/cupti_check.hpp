// Every CUPTI call is checked: a failure throws detail::cupti_error naming the call, with the
// result's name from cuptiGetResultString. Destructors use the _NOEXCEPT twin.
#pragma once

#include "cudalab/detail/profiler_backend.hpp"

#include <cupti_result.h>

#include <cstddef>

namespace cudalab::detail {
void report_cupti_error(CUptiResult code, const char* call) noexcept;

// A CUPTI parameter struct: every field zero, structSize set (what CUPTI checks first).
template <typename T>
T cupti_params(std::size_t struct_size) {
  T params{};
  params.structSize = struct_size;
  return params;
}
}  // namespace cudalab::detail

#define CUDALAB_CUPTI_PARAMS(type) ::cudalab::detail::cupti_params<type>(type##_STRUCT_SIZE)

#define CUDALAB_CHECK_CUPTI(call)                                         \
  do {                                                                    \
    const CUptiResult cudalab_cupti_status_ = (call);                     \
    if (cudalab_cupti_status_ != CUPTI_SUCCESS)                           \
      throw ::cudalab::detail::cupti_error(cudalab_cupti_status_, #call); \
  } while (0)

#define CUDALAB_CHECK_CUPTI_NOEXCEPT(call)                                 \
  do {                                                                     \
    const CUptiResult cudalab_cupti_status_ = (call);                      \
    if (cudalab_cupti_status_ != CUPTI_SUCCESS)                            \
      ::cudalab::detail::report_cupti_error(cudalab_cupti_status_, #call); \
  } while (0)
