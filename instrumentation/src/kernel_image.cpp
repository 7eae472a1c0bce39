#include "cudalab/kernel_image.hpp"

#include "cudalab/error.hpp"

#include <cuda_runtime_api.h>

#include <optional>
#include <stdexcept>

#ifndef CUDALAB_BUILT_CUDA_ARCHITECTURES
#error "the build defines CUDALAB_BUILT_CUDA_ARCHITECTURES (instrumentation/CMakeLists.txt)"
#endif

namespace cudalab {
namespace {

// The oldest architecture CUDA 13's nvcc still generates code for.
constexpr int oldest_buildable = 75;

cuda_architecture parse_one(std::string_view entry) {
  cuda_architecture a;
  std::string_view rest = entry;
  std::size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  if (digits == 0 || digits > 4)
    throw std::invalid_argument("CUDA architecture '" + std::string(entry) +
                                "' does not start with a number such as 90");
  a.number = std::stoi(std::string(rest.substr(0, digits)));
  rest.remove_prefix(digits);
  if (!rest.empty() && rest.front() == 'a') {
    a.specific = true;
    rest.remove_prefix(1);
  }
  if (rest == "-real") {
    a.ptx = false;
  } else if (rest == "-virtual") {
    a.sass = false;
  } else if (!rest.empty()) {
    throw std::invalid_argument("CUDA architecture '" + std::string(entry) +
                                "': expected NN, NNa, NN-real or NN-virtual");
  }
  return a;
}

std::string sm(int number) { return "sm_" + std::to_string(number); }

}  // namespace

std::vector<cuda_architecture> parse_cuda_architectures(std::string_view list) {
  std::vector<cuda_architecture> out;
  while (!list.empty()) {
    const std::size_t end = list.find_first_of(";,");
    const std::string_view entry = list.substr(0, end);
    if (!entry.empty()) out.push_back(parse_one(entry));
    if (end == std::string_view::npos) break;
    list.remove_prefix(end + 1);
  }
  if (out.empty()) throw std::invalid_argument("no CUDA architecture in the list");
  return out;
}

std::string describe(const std::vector<cuda_architecture>& built) {
  std::string s;
  for (const auto& a : built) {
    const std::string name = std::to_string(a.number) + (a.specific ? "a" : "");
    if (!s.empty()) s += ", ";
    if (a.sass) s += "sm_" + name;
    if (a.sass && a.ptx) s += " + ";
    if (a.ptx) s += "PTX compute_" + name;
  }
  return s;
}

kernel_image find_kernel_image(const std::vector<cuda_architecture>& built, int major, int minor) {
  const int device = major * 10 + minor;
  for (const auto& a : built) {
    if (!a.sass) continue;
    const bool fits =
        a.specific ? a.number == device : a.number / 10 == major && a.number % 10 <= minor;
    if (fits) return kernel_image::sass;
  }
  for (const auto& a : built) {
    if (!a.ptx) continue;
    if (a.specific ? a.number == device : a.number <= device) return kernel_image::ptx;
  }
  return kernel_image::none;
}

std::optional<missing_kernel_image> check_kernel_image(const std::vector<cuda_architecture>& built,
                                                       int major, int minor,
                                                       std::string_view device_name) {
  if (find_kernel_image(built, major, minor) != kernel_image::none) return std::nullopt;
  const int device = major * 10 + minor;
  missing_kernel_image m;
  // The error line stays short whatever the GPU's name; what the build holds goes in the fix,
  // which the tool wraps.
  m.what = "this build has no GPU code for the " + std::string(device_name) +
           " (compute capability " + std::to_string(major) + "." + std::to_string(minor) + ")";
  const std::string holds = "it holds " + describe(built) + " only; ";
  if (device < oldest_buildable) {
    m.fix = holds +
            "CUDA 13 builds code for compute capability 7.5 and newer only (the counters need "
            "7.5 too): run cudalab on a newer GPU";
    return m;
  }
  const std::string arch = std::to_string(device);
  m.fix = holds + "build for " + sm(device) +
          ": `cmake --preset release -DCMAKE_CUDA_ARCHITECTURES=" + arch +
          " && cmake --build --preset release`, or `CUDAARCHS=" + arch +
          " scripts/setup.sh` (`native` builds for the GPUs of the machine that configures)";
  return m;
}

const std::vector<cuda_architecture>& built_cuda_architectures() {
  static const std::vector<cuda_architecture> built =
      parse_cuda_architectures(CUDALAB_BUILT_CUDA_ARCHITECTURES);
  return built;
}

void require_kernel_image(int major, int minor, std::string_view device_name) {
  if (const auto missing =
          check_kernel_image(built_cuda_architectures(), major, minor, device_name))
    throw error(missing->what, missing->fix);
}

std::string missing_kernel_image_hint() noexcept {
  try {
    int device = 0;
    cudaDeviceProp prop{};
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
      cudaGetLastError();
      return {};
    }
    const auto missing =
        check_kernel_image(built_cuda_architectures(), prop.major, prop.minor, prop.name);
    return missing ? missing->what + "; " + missing->fix : std::string{};
  } catch (const std::exception&) {
    return {};
  }
}

}  // namespace cudalab
