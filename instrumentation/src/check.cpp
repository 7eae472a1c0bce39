#include "cudalab/check.hpp"

#include "cudalab/kernel_image.hpp"

#include <cstdio>

namespace cudalab {
namespace {

std::string hint_for(cudaError_t code) {
  switch (code) {
    case cudaErrorNoDevice:
    case cudaErrorInsufficientDriver:
      return "run `cudalab doctor` to see what is missing";
    case cudaErrorMemoryAllocation:
      return "try a smaller --size; `cudalab device` shows the free memory";
    case cudaErrorInvalidConfiguration:
      return "check --block (1..1024 threads) and the grid size";
    case cudaErrorIllegalAddress:
      return "a kernel accessed memory out of bounds; run it under scripts/sanitize.sh";
    case cudaErrorNoKernelImageForDevice: {
      const std::string advice = missing_kernel_image_hint();
      return advice.empty() ? "this build has no GPU code for this device: rebuild with "
                              "`cmake --preset release -DCMAKE_CUDA_ARCHITECTURES=native && "
                              "cmake --build --preset release` (docs/building.md)"
                            : advice;
    }
    case cudaErrorUnsupportedPtxVersion:
      return "the driver is older than the CUDA that compiled this build's PTX: update the "
             "driver, or build machine code for this GPU (docs/building.md)";
    default:
      return {};
  }
}

}  // namespace

cuda_error::cuda_error(cudaError_t code, const char* call, const char* file, int line)
    : error(std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ") in " + call +
                " at " + file + ":" + std::to_string(line),
            hint_for(code)),
      m_code(code) {}

no_device_error::no_device_error(const std::string& why)
    : error("no CUDA device: " + why,
            "use a GPU (`cudalab doctor` checks); without --trace or --lines, `cudalab run` prints "
            "the model's predictions") {}

namespace detail {

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  throw cuda_error(code, call, file, line);
}

void report_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept {
  std::fprintf(stderr, "cudalab: %s (%s) in %s at %s:%d\n", cudaGetErrorName(code),
               cudaGetErrorString(code), call, file, line);
}

}  // namespace detail
}  // namespace cudalab
