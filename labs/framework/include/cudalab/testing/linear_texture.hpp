// A texture object over floats in linear device memory, for the wrong ways that read their data
// through the texture path (TLD in the SASS) instead of global loads: the graders must see
// them on their "other memory paths" line.
#pragma once

#include "cudalab/check.hpp"
#include "cudalab/unique_handle.hpp"

#include <cuda_runtime.h>

#include <cstddef>

namespace cudalab::testing {

struct destroy_texture {
  void operator()(cudaTextureObject_t t) const noexcept {
    CUDALAB_CHECK_CUDA_NOEXCEPT(cudaDestroyTextureObject(t));
  }
};
using texture_object = unique_handle<cudaTextureObject_t, destroy_texture>;

// Reads `count` floats from `data` element by element (tex1Dfetch<float>(t, i) is data[i]).
// The launch that uses it must be done before the object is destroyed.
inline texture_object linear_float_texture(const float* data, std::size_t count) {
  cudaResourceDesc resource{};
  resource.resType = cudaResourceTypeLinear;
  resource.res.linear.devPtr = const_cast<float*>(data);
  resource.res.linear.desc = cudaCreateChannelDesc<float>();
  resource.res.linear.sizeInBytes = count * sizeof(float);
  cudaTextureDesc how{};
  how.readMode = cudaReadModeElementType;
  texture_object t;
  CUDALAB_CHECK_CUDA(cudaCreateTextureObject(t.receive(), &resource, &how, nullptr));
  return t;
}

}  // namespace cudalab::testing
