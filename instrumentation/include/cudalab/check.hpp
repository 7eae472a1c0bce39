// Error checking for every CUDA runtime and driver call.
//
// A failed call becomes a cudalab::cuda_error carrying the call, the file and line, the
// error name and, where one helps, a hint for the learner. Destructors use the _NOEXCEPT
// twin, which reports on stderr instead of throwing.
#pragma once

#include "cudalab/error.hpp"

#include <cuda_runtime_api.h>

#include <string>

namespace cudalab {

// A CUDA runtime call failed.
class cuda_error : public error {
 public:
  cuda_error(cudaError_t code, const char* call, const char* file, int line);
  cudaError_t code() const noexcept { return m_code; }

 private:
  cudaError_t m_code;
};

// Bad user input (an option value, a lab name): reported as one line, exit code 2.
class usage_error : public error {
 public:
  using error::error;
};

// No CUDA device is usable here; `run` reports this with exit code 3.
class no_device_error : public error {
 public:
  explicit no_device_error(const std::string& why);
};

namespace detail {
void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);
void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept;
}  // namespace detail

}  // namespace cudalab

// Runs `call` once and hands a failure, with the call's text and where, to `on_error`.
#define CUDALAB_DETAIL_CHECK_CUDA_WITH(on_error, call)                         \
  do {                                                                         \
    const cudaError_t cudalab_status_ = (call);                                \
    if (cudalab_status_ != cudaSuccess)                                        \
      ::cudalab::detail::on_error(cudalab_status_, #call, __FILE__, __LINE__); \
  } while (0)

#define CUDALAB_CHECK_CUDA(call) CUDALAB_DETAIL_CHECK_CUDA_WITH(throw_cuda_error, call)

// For destructors: never throws, reports on stderr.
#define CUDALAB_CHECK_CUDA_NOEXCEPT(call) CUDALAB_DETAIL_CHECK_CUDA_WITH(report_cuda_error, call)

// After every kernel launch: launch-configuration errors surface here.
#define CUDALAB_CHECK_LAUNCH() CUDALAB_CHECK_CUDA(cudaGetLastError())
