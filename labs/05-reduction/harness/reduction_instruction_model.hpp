// Lab 05's instruction model: warp instructions, thread instructions and branches of each
// reduction kernel, predicted by walking its warps through the SASS this build compiled
// (embedded by cmake/embed_sass.py) with the lanes' answers taken from the kernel's source.
//
// Why the SASS: thread efficiency (threads per warp instruction) weighs each region of the
// code by how many instructions the compiler put there. interleaved_divergent's step costs
// 26 instructions run by the whole warp plus 16 run only by the lanes that add (the call, its
// body and the return), so its efficiency is a property of the binary, not of the source
// alone. The walk (cudalab/model/sass_warp_walk.hpp) counts instructions from the binary;
// this file says, for each conditional branch or exit of each kernel, which lanes take it:
//
//   site kind      which lanes take it                        kernels
//   skip_tree      all, when the tree loop has no step        every tree, finish
//   tree_back      all, while another step follows            every tree, finish
//   skip_call      lanes with tid % 2s != 0 (they do not add)  interleaved_divergent
//   skip_loads     lanes with no element to load               finish, grid_stride
//   loads_back     lanes with another element to load          finish, grid_stride
//   exit_unless    lanes failing `tid == 0`, `tid < 32` or `warp_of(tid) == 0`
//
// If the compiled SASS has another number of sites than the kernel's list (another nvcc, the
// -G debug build), the prediction is unavailable rather than wrong.
#pragma once

#include "reduction_model.hpp"

#include "cudalab/model/sass_warp_walk.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace cudalab::labs::reduction_model {

struct instruction_prediction {
  std::optional<model::sass::instruction_counts> counts;  // empty: see `unavailable`
  std::string unavailable;                                // why there is no prediction
};

// One launch of `k` over n elements (of float, or of int with `integers`) in blocks of
// `block` threads; for kernel::finish, n partial sums folded by one block of finish_block.
instruction_prediction predict_instructions(kernel k, std::size_t n, unsigned block,
                                            bool integers = false);

// `counts` with the instructions of the same launches: kernel `first` over n elements (of int
// with `integers`) and, with `finish_on_gpu`, the finishing pass over its partial sums. Left
// without instructions where the SASS cannot be walked.
model::access_counts with_instructions(model::access_counts counts, kernel first, std::size_t n,
                                       unsigned block, bool finish_on_gpu, bool integers = false);

// The SASS text the predictions walk (what the build embedded), for tests and `--explain`.
std::string_view reduction_sass();

}  // namespace cudalab::labs::reduction_model
