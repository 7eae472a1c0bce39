// CUPTI failures as text: the call that failed and the result's name, never a bare number.
#include "cupti_check.hpp"

#include <cupti_result.h>

#include <cstdio>

namespace cudalab::detail {
namespace {

std::string function_name(std::string call) { return call.substr(0, call.find('(')); }

}  // namespace

std::string cupti_result_name(CUptiResult code) {
  const char* text = nullptr;
  if (cuptiGetResultString(code, &text) == CUPTI_SUCCESS && text != nullptr) return text;
  return "CUptiResult " + std::to_string(static_cast<int>(code));
}

cupti_error::cupti_error(CUptiResult code, std::string call, std::string hint)
    : error(function_name(call) + " failed: " + cupti_result_name(code), std::move(hint)),
      m_code(code),
      m_call(function_name(std::move(call))) {}

void report_cupti_error(CUptiResult code, const char* call) noexcept {
  std::fprintf(stderr, "cudalab: %s failed: %s\n", function_name(call).c_str(),
               cupti_result_name(code).c_str());
}

}  // namespace cudalab::detail
