// Lab 06's access model: the global and shared accesses of every transpose and copy kernel,
// walked warp by warp with the kernels' own index functions (kernels/transpose/
// transpose_index.cuh).
//
// Every kernel moves one 32 x 32 tile a block (tile64_rows and tile64_vec4 a 64 x 64 one), and a
// block step moves
// each buffer by a multiple of 128 bytes (32 or 64 elements of a row, or as many rows), so all
// whole blocks count alike (cudalab/model/block_classes.hpp): the prediction walks one whole block
// and the edge blocks of the last block row and column, a few hundred warp instructions at any
// size.
#pragma once

#include "cudalab/model/block_classes.hpp"

#include <cstddef>
#include <cstdint>

namespace cudalab::labs::transpose_model {

enum class kernel {
  copy,
  copy_restrict,
  naive_row_read,
  naive_col_read,
  shared_tile,
  padded,
  swizzled,
  tile_rows,
  tile64_rows,
  tile64_vec4,
  tile64_vec4_row_order,
  shared_tile_double,
  padded_double,
  shared_stride,
};
// Buffers 0 and 1 are the input and the output.
using model::buffer_base;
using model::walk;

// The bytes of one element (4 for float, 8 for double), the rows of threads of a block and the
// side of its tile (32, or 64 for tile64_rows and the two tile64_vec4).
unsigned element_bytes(kernel k);
unsigned block_rows(kernel k);
unsigned tile_side(kernel k);

// The counts of one launch on a rows x cols input; `stride` is shared_stride's (1..32), ignored
// by the others. `every_block` walks every block: the reference the tests hold the shortcut to.
model::access_counts predict(kernel k, std::size_t rows, std::size_t cols, unsigned stride = 0,
                             walk how = walk::block_classes);

// The warp instructions predict() simulates (the model budget's measure), for the shortcut.
double prediction_cost(kernel k, std::size_t rows, std::size_t cols);

}  // namespace cudalab::labs::transpose_model
