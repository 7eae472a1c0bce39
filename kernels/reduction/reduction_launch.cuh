// The launch the five tree kernels share: check the shape, one block of `block` threads for
// every `grid(n, block)`-th slice of the input with a block-sized shared array, check the
// launch. Only the kernel and its grid differ between them.
#pragma once

#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

namespace cudalab::reduction {

template <typename T>
using tree_kernel = void (*)(const T* in, T* partial, unsigned n);

template <typename T>
launch_dims launch_tree(tree_kernel<T> kernel, unsigned (*grid)(std::size_t, unsigned), const T* in,
                        T* partial, std::size_t n, unsigned block, cudaStream_t stream) {
  check_block(block);
  check_size(n);
  const launch_dims d{grid(n, block), block, block * sizeof(T)};
  kernel<<<d.grid, d.block, d.shared_bytes, stream>>>(in, partial, static_cast<unsigned>(n));
  CUDALAB_CHECK_LAUNCH();
  return d;
}

}  // namespace cudalab::reduction
