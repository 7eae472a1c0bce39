// Lab 03's access model: the global and shared accesses of every matrix-product kernel, walked
// warp by warp with the kernels' own index functions (kernels/matmul/matmul_index.cuh).
//
// Whole blocks repeat (cudalab/model/block_classes.hpp), and so do whole steps of each
// thread's loop over the inner dimension: step k of the naive loop moves A's address by 4
// bytes and B's by 4n, a tile step moves them by 4T and 4Tn, so steps a period apart (the
// fewest whose shift is a multiple of 128 bytes) count the same. The prediction walks one
// block, and one step, of each class, plus the edges: a few thousand warp instructions at any
// size, where walking the launch would be about n^3 / 16.
#pragma once

#include "cudalab/model/block_classes.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::labs::matmul_model {

enum class kernel { naive, tiled, tiled_unguarded, tiled_store_in_loop };
// Buffers 0 to 2 are A, B and C.
using model::buffer_base;
using model::walk;

// The counts of one launch for side n. `shape` is the naive kernel's threads a block, or a
// tiled kernel's tile T. `every_block` walks every block and every loop step: the reference
// the tests hold the shortcut to (small n only).
model::access_counts predict(kernel k, std::size_t n, unsigned shape,
                             walk how = walk::block_classes);

// The warp instructions predict() simulates (the model budget's measure), for the shortcut.
double prediction_cost(kernel k, std::size_t n, unsigned shape);

}  // namespace cudalab::labs::matmul_model
