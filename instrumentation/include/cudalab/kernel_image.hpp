// Whether this binary holds GPU code the device can run, and what to build when it does not.
//
// nvcc embeds, for each entry of CMAKE_CUDA_ARCHITECTURES, machine code (SASS) for one
// architecture and/or PTX. The driver runs SASS built for sm_XY on a GPU of compute capability
// X.Z with Z >= Y (sm_XYa: on X.Y only), and compiles PTX for compute_XY on any GPU of
// capability X.Y or newer. Without either, every launch fails with
// cudaErrorNoKernelImageForDevice; the kit says instead which architecture to build and how
// (docs/building.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

// One entry of CMAKE_CUDA_ARCHITECTURES: "90" (SASS and PTX), "90-real" (SASS only),
// "90-virtual" (PTX only), "90a" (architecture-specific: SASS and PTX for 9.0 alone).
struct cuda_architecture {
  int number = 0;  // 90: compute capability 9.0
  bool sass = true;
  bool ptx = true;
  bool specific = false;  // the "a" suffix
  friend bool operator==(const cuda_architecture& a, const cuda_architecture& b) {
    return a.number == b.number && a.sass == b.sass && a.ptx == b.ptx && a.specific == b.specific;
  }
};

// Parses "80;90-real", "80,90a" or "90". Throws std::invalid_argument naming the bad entry.
std::vector<cuda_architecture> parse_cuda_architectures(std::string_view list);
// "sm_80, sm_90 + PTX": what a list holds, in nvcc's words.
std::string describe(const std::vector<cuda_architecture>& built);

enum class kernel_image { sass, ptx, none };
// What the driver will run on a GPU of compute capability major.minor: SASS when one entry
// fits, else PTX it compiles at first launch, else nothing.
kernel_image find_kernel_image(const std::vector<cuda_architecture>& built, int major, int minor);

// A GPU that finds no code in the binary: what is wrong, and the command that builds it.
struct missing_kernel_image {
  std::string what;  // what the binary holds and what the GPU is
  std::string fix;   // the architecture to build and the command
};
// nullopt when the GPU finds SASS or PTX in `built`.
std::optional<missing_kernel_image> check_kernel_image(const std::vector<cuda_architecture>& built,
                                                       int major, int minor,
                                                       std::string_view device_name);

// CMAKE_CUDA_ARCHITECTURES as this binary was built (`native` and `all` resolved by CMake).
const std::vector<cuda_architecture>& built_cuda_architectures();

// Throws cudalab::error (what and fix of check_kernel_image) when this binary holds no code
// for the GPU: called before any work starts.
void require_kernel_image(int major, int minor, std::string_view device_name);

// The hint for a cudaErrorNoKernelImageForDevice already raised on the current device; empty
// when the device cannot be queried or the list says there is code for it.
std::string missing_kernel_image_hint() noexcept;

}  // namespace cudalab
