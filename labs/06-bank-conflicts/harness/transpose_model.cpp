// Lab 06's access model (transpose_model.hpp): what each warp of each kernel issues, with the
// kernels' own index functions. A block's threads are 32 wide, so a warp is one thread row ty
// and lane l is thread x l.
#include "transpose_model.hpp"

#include "transpose/transpose_index.cuh"
#include "transpose/transpose_kernels.cuh"

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <optional>
#include <utility>

namespace cudalab::labs::transpose_model {
namespace {

using model::access_kind;
using model::memory_space;
using model::warp_access;
using model::warp_threads_2d;
namespace tr = cudalab::transpose;

enum class moves { copy, row_read, col_read, tile, chunks, stride };

struct kernel_shape {
  unsigned bytes = 4;
  unsigned rows_of_threads = tr::one_element_rows;
  moves how = moves::copy;
  tr::tile_layout layout = tr::tile_layout::plain;
  unsigned side = tr::tile_dim;  // of a block's tile
};

using L = tr::tile_layout;

// Each kernel's element bytes, rows of threads, moves and tile layout.
const std::pair<kernel, kernel_shape> kernel_shapes[] = {
    {kernel::copy, {4, tr::strip_rows, moves::copy, L::plain}},
    {kernel::copy_restrict, {4, tr::strip_rows, moves::copy, L::plain}},
    {kernel::naive_row_read, {4, tr::one_element_rows, moves::row_read, L::plain}},
    {kernel::naive_col_read, {4, tr::one_element_rows, moves::col_read, L::plain}},
    {kernel::shared_tile, {4, tr::one_element_rows, moves::tile, L::plain}},
    {kernel::padded, {4, tr::one_element_rows, moves::tile, L::padded}},
    {kernel::swizzled, {4, tr::one_element_rows, moves::tile, L::swizzled}},
    {kernel::tile_rows, {4, tr::strip_rows, moves::tile, L::padded}},
    {kernel::tile64_rows, {4, tr::strip_rows, moves::tile, L::padded, tr::wide_tile_dim}},
    {kernel::tile64_vec4, {4, tr::strip_rows, moves::chunks, L::plain, tr::wide_tile_dim}},
    {kernel::tile64_vec4_row_order,
     {4, tr::strip_rows, moves::chunks, L::plain, tr::wide_tile_dim}},
    {kernel::shared_tile_double, {8, tr::one_element_rows, moves::tile, L::plain}},
    {kernel::padded_double, {8, tr::one_element_rows, moves::tile, L::padded}},
    {kernel::shared_stride, {4, tr::strip_rows, moves::stride, L::plain}},
};

kernel_shape shape_of(kernel k) {
  for (const auto& [listed, shape] : kernel_shapes)
    if (listed == k) return shape;
  return {};
}

// A global access of `width` bytes a lane at element element_of_lane(lane) of `element_bytes`
// (the same but for tile64_vec4, whose lanes move 4 floats at once).
template <class Fn>
warp_access global_access(access_kind kind, const warp_threads_2d& w, unsigned buffer,
                          unsigned width, Fn&& element_of_lane, unsigned element_bytes = 0) {
  const std::uint64_t stride = element_bytes ? element_bytes : width;
  return model::make_warp_access(
      memory_space::global, kind, width, w,
      [&](const warp_threads_2d&, unsigned lane) -> std::optional<std::uint64_t> {
        const std::optional<std::size_t> e = element_of_lane(lane);
        if (!e) return std::nullopt;
        return buffer_base(buffer) + *e * stride;
      });
}

template <class Fn>
warp_access shared_access(access_kind kind, const warp_threads_2d& w, unsigned bytes,
                          Fn&& slot_of_lane) {
  return model::make_warp_access(
      memory_space::shared, kind, bytes, w,
      [&](const warp_threads_2d&, unsigned lane) -> std::optional<std::uint64_t> {
        const std::optional<unsigned> s = slot_of_lane(lane);
        if (!s) return std::nullopt;
        return std::uint64_t{*s} * bytes;
      });
}

// tile64_vec4 and tile64_vec4_row_order (transpose_chunked.cu), at sides where chunks_fit: each
// step a lane moves one chunk of 4 floats, 16 bytes a load and a store, 4 bytes a shared read.
// (bx, by) is the tile a block takes (column_order_tile in tile64_vec4); every tile is taken
// once in either order, so summing over tiles is summing over blocks.
void record_chunks(model::access_model& m, const warp_threads_2d& w, std::size_t rows,
                   std::size_t cols, unsigned bx, unsigned by) {
  const unsigned ty = w.thread_y(0), side = tr::wide_tile_dim;
  const auto word_bytes = [](unsigned word) { return std::uint64_t{word} * sizeof(float); };
  for (unsigned j = 0; j < tr::chunk_steps; ++j) {
    // Input row r, columns c .. c + 3, into its chunk of the tile.
    const auto input = [&](unsigned lane) -> std::optional<std::size_t> {
      const std::size_t r = tr::tile_row(by, tr::load_chunk_row(lane, ty, j), side);
      const std::size_t c = tr::tile_col(bx, tr::load_chunk_first_col(lane), side);
      if (!(r < rows && c < cols)) return std::nullopt;
      return tr::element_index(r, c, cols);
    };
    m.record(global_access(access_kind::load, w, 0, 16, input, sizeof(float)));
    m.record(model::make_warp_access(
        memory_space::shared, access_kind::store, 16, w,
        [&](const warp_threads_2d&, unsigned lane) -> std::optional<std::uint64_t> {
          if (!input(lane)) return std::nullopt;
          return word_bytes(tr::chunked_tile_word(tr::load_chunk_row(lane, ty, j),
                                                  tr::load_chunk_first_col(lane)));
        }));
  }
  for (unsigned j = 0; j < tr::chunk_steps; ++j) {
    // Output row c (input column c), its elements from input rows r0 .. r0 + 3.
    const auto output = [&](unsigned lane) -> std::optional<std::size_t> {
      const std::size_t c = tr::tile_col(bx, tr::store_chunk_row(lane, ty, j), side);
      const std::size_t r0 = tr::tile_row(by, tr::store_chunk_first_col(lane, ty, j), side);
      if (!(c < cols && r0 < rows)) return std::nullopt;
      return tr::element_index(c, r0, rows);
    };
    for (unsigned i = 0; i < tr::chunk_floats; ++i)
      m.record(model::make_warp_access(
          memory_space::shared, access_kind::load, 4, w,
          [&](const warp_threads_2d&, unsigned lane) -> std::optional<std::uint64_t> {
            if (!output(lane)) return std::nullopt;
            return word_bytes(tr::chunked_tile_word(tr::store_chunk_first_col(lane, ty, j) + i,
                                                    tr::store_chunk_row(lane, ty, j)));
          }));
    m.record(global_access(access_kind::store, w, 1, 16, output, sizeof(float)));
  }
}

model::access_counts block_counts(const kernel_shape& s, std::size_t rows, std::size_t cols,
                                  unsigned stride, unsigned bx, unsigned by) {
  model::access_model m;
  if (s.how == moves::chunks) {
    model::for_each_warp_of_block_2d(
        bx, by, tr::tile_dim, s.rows_of_threads,
        [&](const warp_threads_2d& w) { record_chunks(m, w, rows, cols, bx, by); });
    return m.counts();
  }
  const unsigned steps = tr::steps_of(s.rows_of_threads, s.side);
  model::for_each_warp_of_block_2d(
      bx, by, tr::tile_dim, s.rows_of_threads, [&](const warp_threads_2d& w) {
        const unsigned ty = w.thread_y(0);
        unsigned h = 0;  // the pass across the tile's columns (tile64_rows: 0 and 1)
        // The input element (r, c) a lane moves at step j of pass h, by the kernel's mapping,
        // and whether its guard lets it through.
        const auto row_major = [&](unsigned j, unsigned lane) {
          return std::pair{tr::tile_row(by, tr::local_row(ty, j, s.rows_of_threads), s.side),
                           tr::tile_col(bx, tr::local_col(lane, h), s.side)};
        };
        const auto column_major = [&](unsigned j, unsigned lane) {  // the tile's read side
          return std::pair{tr::tile_row(by, tr::local_col(lane, h), s.side),
                           tr::tile_col(bx, tr::local_row(ty, j, s.rows_of_threads), s.side)};
        };
        const auto in_at = [&](auto mapping, unsigned j) {
          return [&, mapping, j](unsigned lane) -> std::optional<std::size_t> {
            const auto [r, c] = mapping(j, lane);
            if (!(r < rows && c < cols)) return std::nullopt;
            return tr::element_index(r, c, cols);
          };
        };
        const auto out_at = [&](auto mapping, unsigned j, bool transposed) {
          return [&, mapping, j, transposed](unsigned lane) -> std::optional<std::size_t> {
            const auto [r, c] = mapping(j, lane);
            if (!(r < rows && c < cols)) return std::nullopt;
            return transposed ? tr::element_index(c, r, rows) : tr::element_index(r, c, cols);
          };
        };
        for (h = 0; h < tr::passes_of(s.side); ++h)
          for (unsigned j = 0; j < steps; ++j) {
            switch (s.how) {
              case moves::copy:
                m.record(global_access(access_kind::load, w, 0, s.bytes, in_at(row_major, j)));
                m.record(
                    global_access(access_kind::store, w, 1, s.bytes, out_at(row_major, j, false)));
                break;
              case moves::row_read:
                m.record(global_access(access_kind::load, w, 0, s.bytes, in_at(row_major, j)));
                m.record(
                    global_access(access_kind::store, w, 1, s.bytes, out_at(row_major, j, true)));
                break;
              case moves::col_read:
                m.record(global_access(access_kind::load, w, 0, s.bytes, in_at(column_major, j)));
                m.record(global_access(access_kind::store, w, 1, s.bytes,
                                       out_at(column_major, j, true)));
                break;
              case moves::stride: {
                const auto inside = in_at(row_major, j);
                const auto word = [&](unsigned lane) -> std::optional<unsigned> {
                  if (!inside(lane)) return std::nullopt;
                  return tr::stride_word(ty, lane, stride);
                };
                m.record(global_access(access_kind::load, w, 0, s.bytes, inside));
                m.record(shared_access(access_kind::store, w, s.bytes, word));
                m.record(shared_access(access_kind::load, w, s.bytes, word));
                m.record(
                    global_access(access_kind::store, w, 1, s.bytes, out_at(row_major, j, false)));
                break;
              }
              case moves::tile: {
                const unsigned lr = tr::local_row(ty, j, s.rows_of_threads);
                const auto load = in_at(row_major, j);
                m.record(global_access(access_kind::load, w, 0, s.bytes, load));
                m.record(shared_access(
                    access_kind::store, w, s.bytes, [&](unsigned lane) -> std::optional<unsigned> {
                      if (!load(lane)) return std::nullopt;
                      return tr::tile_element(s.layout, lr, tr::local_col(lane, h), s.side);
                    }));
                const auto store = out_at(column_major, j, true);
                m.record(shared_access(
                    access_kind::load, w, s.bytes, [&](unsigned lane) -> std::optional<unsigned> {
                      if (!store(lane)) return std::nullopt;
                      return tr::tile_element(s.layout, tr::local_col(lane, h), lr, s.side);
                    }));
                m.record(global_access(access_kind::store, w, 1, s.bytes, store));
                break;
              }
            }
          }
      });
  return m.counts();
}

// The grid's axes: a block step in x moves the input by 32 elements and a transpose's output
// by 32 rows; in y the other way round (the copies' output moves as the input). Blocks before
// side / 32 pass every guard.
struct block_grid {
  model::grid_axis x, y;
};

model::grid_axis axis(std::size_t length, unsigned side, std::uint64_t period) {
  model::grid_axis a;
  a.blocks = a.edge_end = (length + side - 1) / side;
  a.whole = length / side;
  a.period = period;
  return a;
}

block_grid grid_of(const kernel_shape& s, std::size_t rows, std::size_t cols) {
  const std::uint64_t tile_step = std::uint64_t{s.side} * s.bytes;
  block_grid g;
  g.x = axis(cols, s.side, model::repeat_period({tile_step, tile_step * rows}));
  g.y = axis(rows, s.side, model::repeat_period({tile_step * cols, tile_step}));
  return g;
}

// The kernel a variant runs at rows x cols: the tile64_vec4 launchers run tile64_rows's where the
// chunks do not fit.
kernel kernel_run(kernel k, std::size_t rows, std::size_t cols) {
  const bool chunked = k == kernel::tile64_vec4 || k == kernel::tile64_vec4_row_order;
  return chunked && !tr::chunks_fit(rows, cols) ? kernel::tile64_rows : k;
}

void check(kernel k, std::size_t rows, std::size_t cols, unsigned stride) {
  tr::check_sides(rows, cols);
  if (k == kernel::shared_stride) tr::check_stride(stride);
}

}  // namespace

unsigned element_bytes(kernel k) { return shape_of(k).bytes; }
unsigned block_rows(kernel k) { return shape_of(k).rows_of_threads; }
unsigned tile_side(kernel k) { return shape_of(k).side; }

model::access_counts predict(kernel k, std::size_t rows, std::size_t cols, unsigned stride,
                             walk how) {
  check(k, rows, cols, stride);
  k = kernel_run(k, rows, cols);
  const kernel_shape s = shape_of(k);
  const block_grid g = grid_of(s, rows, cols);
  const auto one_block = [&](std::uint64_t bx, std::uint64_t by) {
    return block_counts(s, rows, cols, stride, static_cast<unsigned>(bx),
                        static_cast<unsigned>(by));
  };
  return how == walk::every_block ? model::sum_every_block(g.x, g.y, one_block)
                                  : model::sum_block_classes(g.x, g.y, one_block);
}

double prediction_cost(kernel k, std::size_t rows, std::size_t cols) {
  const kernel_shape s = shape_of(kernel_run(k, rows, cols));
  const block_grid g = grid_of(s, rows, cols);
  // Every block issues at most 4 accesses a step in each of its warps: side x side / 32 steps of
  // warps (32 for a 32-tile).
  return static_cast<double>(model::blocks_walked(g.x, g.y)) * 4.0 * s.side * s.side / tr::tile_dim;
}

}  // namespace cudalab::labs::transpose_model
