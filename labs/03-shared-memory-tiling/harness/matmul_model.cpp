// Lab 03's access model (matmul_model.hpp): what each warp of each kernel issues, in the
// kernels' order, with the kernels' own index functions.
#include "matmul_model.hpp"

#include "matmul/matmul_index.cuh"
#include "matmul/matmul_kernels.cuh"

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace cudalab::labs::matmul_model {
namespace {

using model::access_kind;
using model::memory_space;
using model::warp_access;
using model::warp_threads_2d;
namespace mm = cudalab::matmul;

constexpr std::uint64_t float_bytes = sizeof(float);

bool is_tiled(kernel k) { return k != kernel::naive; }
bool guarded(kernel k) { return k != kernel::tiled_unguarded; }

// An axis of blocks or loop steps (block_classes.hpp).
constexpr auto axis = &model::grid_axis::with_whole;

bool any_active(const warp_access& w) {
  return std::any_of(w.address.begin(), w.address.end(),
                     [](std::uint64_t a) { return a != model::inactive_lane; });
}

// A global access of a warp: lane -> element index, or nullopt where the lane takes no part.
template <class Fn>
warp_access global_access(access_kind kind, const warp_threads_2d& w, unsigned buffer, Fn&& fn) {
  return model::make_warp_access(
      memory_space::global, kind, 4, w,
      [&](const warp_threads_2d& ww, unsigned lane) -> std::optional<std::uint64_t> {
        const std::optional<std::size_t> e = fn(ww, lane);
        if (!e) return std::nullopt;
        return buffer_base(buffer) + *e * float_bytes;
      });
}

std::size_t row_of(const warp_threads_2d& w, unsigned lane) {
  return mm::output_row(w.block_y, w.block_dim_y, w.thread_y(lane));
}
std::size_t col_of(const warp_threads_2d& w, unsigned lane) {
  return mm::output_col(w.block_x, w.block_dim_x, w.thread_x(lane));
}

// Step k of the naive loop moves A by 4 bytes and B by 4n: every step is whole (no guard).
model::access_counts naive_block(std::size_t n, unsigned threads, unsigned bx, unsigned by,
                                 walk how) {
  const mm::launch_dims d = mm::naive_dims(n, threads);
  const model::grid_axis k_axis = axis(n, n, model::repeat_period({float_bytes, float_bytes * n}));
  model::access_model m;
  model::for_each_warp_of_block_2d(bx, by, d.block.x, d.block.y, [&](const warp_threads_2d& w) {
    const auto inside = [&](const warp_threads_2d& ww, unsigned lane) {
      return row_of(ww, lane) < n && col_of(ww, lane) < n;
    };
    for (const auto& [k, times] : k_axis.walked(how)) {
      const warp_access a = global_access(
          access_kind::load, w, 0,
          [&](const warp_threads_2d& ww, unsigned lane) -> std::optional<std::size_t> {
            if (!inside(ww, lane)) return std::nullopt;
            return mm::element_index(row_of(ww, lane), k, n);
          });
      if (!any_active(a)) return;  // every lane returned before the loop
      m.record(a, times);
      m.record(global_access(
                   access_kind::load, w, 1,
                   [&](const warp_threads_2d& ww, unsigned lane) -> std::optional<std::size_t> {
                     if (!inside(ww, lane)) return std::nullopt;
                     return mm::element_index(k, col_of(ww, lane), n);
                   }),
               times);
    }
    m.record(
        global_access(access_kind::store, w, 2,
                      [&](const warp_threads_2d& ww, unsigned lane) -> std::optional<std::size_t> {
                        if (!inside(ww, lane)) return std::nullopt;
                        return mm::element_index(row_of(ww, lane), col_of(ww, lane), n);
                      }));
  });
  return m.counts();
}

// A shared access of a warp at tile words word_fn(lane); every lane takes part.
template <class Fn>
warp_access shared_access(access_kind kind, const warp_threads_2d& w, Fn&& word_fn) {
  return model::make_warp_access(
      memory_space::shared, kind, 4, w, [&](const warp_threads_2d& ww, unsigned lane) {
        return std::optional<std::uint64_t>{std::uint64_t{word_fn(ww, lane)} * float_bytes};
      });
}

// A tile step moves A by 4T bytes and B by 4Tn; steps before n / T pass the guards whole.
model::access_counts tiled_block(kernel k, std::size_t n, unsigned tile, unsigned bx, unsigned by,
                                 walk how) {
  const unsigned steps = mm::tile_steps(n, tile);
  const std::uint64_t whole_steps = guarded(k) ? n / tile : steps;
  const model::grid_axis t_axis =
      axis(steps, whole_steps, model::repeat_period({float_bytes * tile, float_bytes * tile * n}));
  model::access_model m;
  model::for_each_warp_of_block_2d(bx, by, tile, tile, [&](const warp_threads_2d& w) {
    const auto output = [&](const warp_threads_2d& ww,
                            unsigned lane) -> std::optional<std::size_t> {
      const std::size_t row = row_of(ww, lane), col = col_of(ww, lane);
      if (guarded(k) && !(row < n && col < n)) return std::nullopt;
      return mm::element_index(row, col, n);
    };
    for (const auto& [step, times] : t_axis.walked(how)) {
      const auto t = static_cast<unsigned>(step);
      m.record(global_access(
                   access_kind::load, w, 0,
                   [&](const warp_threads_2d& ww, unsigned lane) -> std::optional<std::size_t> {
                     const std::size_t row = row_of(ww, lane);
                     const std::size_t col = mm::a_tile_col(t, tile, ww.thread_x(lane));
                     if (guarded(k) && !(row < n && col < n)) return std::nullopt;
                     return mm::element_index(row, col, n);
                   }),
               times);
      m.record(global_access(
                   access_kind::load, w, 1,
                   [&](const warp_threads_2d& ww, unsigned lane) -> std::optional<std::size_t> {
                     const std::size_t row = mm::b_tile_row(t, tile, ww.thread_y(lane));
                     const std::size_t col = col_of(ww, lane);
                     if (guarded(k) && !(row < n && col < n)) return std::nullopt;
                     return mm::element_index(row, col, n);
                   }),
               times);
      if (k == kernel::tiled_store_in_loop)
        m.record(global_access(access_kind::store, w, 2, output), times);
    }
    // The shared accesses are the same at every step: the two tile stores, then T pairs of
    // reads (row ty of the A tile, column tx of the B tile).
    const auto own_word = [&](const warp_threads_2d& ww, unsigned lane) {
      return mm::tile_word(ww.thread_y(lane), ww.thread_x(lane), tile);
    };
    m.record(shared_access(access_kind::store, w, own_word), steps);
    m.record(shared_access(access_kind::store, w,
                           [&](const warp_threads_2d& ww, unsigned lane) {
                             return mm::b_tile_offset(tile) + own_word(ww, lane);
                           }),
             steps);
    for (unsigned kk = 0; kk < tile; ++kk) {
      m.record(shared_access(access_kind::load, w,
                             [&](const warp_threads_2d& ww, unsigned lane) {
                               return mm::tile_word(ww.thread_y(lane), kk, tile);
                             }),
               steps);
      m.record(shared_access(access_kind::load, w,
                             [&](const warp_threads_2d& ww, unsigned lane) {
                               return mm::b_tile_offset(tile) +
                                      mm::tile_word(kk, ww.thread_x(lane), tile);
                             }),
               steps);
    }
    if (k != kernel::tiled_store_in_loop) m.record(global_access(access_kind::store, w, 2, output));
  });
  return m.counts();
}

// The launch's blocks along x and y: whole blocks pass every guard and repeat with the
// period of the bytes a block moves; the last block of an axis is an edge when n is not a
// multiple of its width. The unguarded kernel has no guard: every block is whole.
struct block_grid {
  model::grid_axis x, y;
};

block_grid grid_of(kernel k, std::size_t n, unsigned shape) {
  block_grid g;
  if (k == kernel::naive) {
    const mm::launch_dims d = mm::naive_dims(n, shape);
    // A block step in x moves B and C by 32 floats, in y A and C by block.y rows.
    g.x = axis(d.grid.x, n / d.block.x, model::repeat_period({float_bytes * d.block.x}));
    g.y = axis(d.grid.y, n / d.block.y, model::repeat_period({float_bytes * d.block.y * n}));
    return g;
  }
  const mm::launch_dims d = mm::tiled_dims(n, shape);
  const bool all_whole = !guarded(k);
  g.x =
      axis(d.grid.x, all_whole ? d.grid.x : n / shape, model::repeat_period({float_bytes * shape}));
  g.y = axis(d.grid.y, all_whole ? d.grid.y : n / shape,
             model::repeat_period({float_bytes * shape * n}));
  return g;
}

}  // namespace

model::access_counts predict(kernel k, std::size_t n, unsigned shape, walk how) {
  const block_grid g = grid_of(k, n, shape);
  const auto one_block = [&](std::uint64_t bx, std::uint64_t by) {
    const auto x = static_cast<unsigned>(bx), y = static_cast<unsigned>(by);
    return is_tiled(k) ? tiled_block(k, n, shape, x, y, how) : naive_block(n, shape, x, y, how);
  };
  return how == walk::every_block ? model::sum_every_block(g.x, g.y, one_block)
                                  : model::sum_block_classes(g.x, g.y, one_block);
}

double prediction_cost(kernel k, std::size_t n, unsigned shape) {
  const block_grid g = grid_of(k, n, shape);
  const double blocks = static_cast<double>(model::blocks_walked(g.x, g.y));
  if (k == kernel::naive) {
    const double warps = shape / 32.0;
    // At most 32 step classes (4 bytes a step), two loads each, and the store.
    return blocks * warps * (2.0 * std::min<double>(32, static_cast<double>(n)) + 1);
  }
  // A block of fewer than 32 threads (T = 2, 4) is still one warp.
  const double warps = std::ceil(shape * shape / 32.0);
  // Step classes, three global accesses each, then 2 + 2T shared. A step moves A by 4T bytes:
  // the sector offsets repeat after 32 / (4T) steps, so small tiles have more classes (plus
  // the first and the edge steps).
  const double step_classes = std::max(4.0, 2.0 + 32.0 / shape);
  return blocks * warps * (3.0 * step_classes + 2 + 2.0 * shape + 1);
}

}  // namespace cudalab::labs::matmul_model
