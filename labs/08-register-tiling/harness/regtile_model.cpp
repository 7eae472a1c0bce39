// Lab 08's access model (regtile_model.hpp): what each warp of each kernel issues, in the
// kernels' order, with the kernels' own index functions.
#include "regtile_model.hpp"

#include "matmul/matmul_index.cuh"
#include "matmul/register_tiling_index.cuh"
#include "matmul/register_tiling_kernels.cuh"

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace cudalab::labs::regtile_model {
namespace {

using model::access_kind;
using model::memory_space;
using model::warp_access;
namespace mm = cudalab::matmul;

constexpr std::uint64_t float_bytes = sizeof(float);
constexpr unsigned buffer_a = 0, buffer_b = 1, buffer_c = 2;

// An axis of blocks or loop steps (block_classes.hpp).
constexpr auto axis = &model::grid_axis::with_whole;

// A warp access of thread-indexed lanes (1D blocks): fn(thread) -> byte address or nullopt.
template <class Fn>
warp_access lanes(memory_space space, access_kind kind, unsigned width,
                  const model::warp_threads& w, Fn&& fn) {
  return model::make_warp_access(
      space, kind, width, w,
      [&](const model::warp_threads& ww, unsigned lane) { return fn(ww.thread_in_block(lane)); });
}

std::optional<std::uint64_t> element(unsigned buffer, std::size_t row, std::size_t col,
                                     std::size_t n) {
  if (row >= n || col >= n) return std::nullopt;
  return buffer_base(buffer) + mm::element_index(row, col, n) * float_bytes;
}

std::uint64_t word_bytes(unsigned word) { return std::uint64_t{word} * float_bytes; }

// Whether kernel k in `config` stores its A tile in the conflict-free layout (the pipeline's
// configurations that pipeline_conflict_free_a lists).
bool conflict_free_a(kernel k, unsigned config) {
  return k == kernel::cp_async_pipeline && config < mm::warp_tiled_configs &&
         mm::pipeline_conflict_free_a[config];
}

// A shared load of one step: its width and the word each thread reads.
struct shared_read {
  unsigned width;
  std::function<unsigned(unsigned thread)> word;
};
// The output (row, column in the block's tile) of each store a thread issues, in order.
using output_fn = std::function<std::pair<unsigned, unsigned>(unsigned thread, unsigned index)>;

// The shared loads of one inner step, as the compiler emits them (register_tiling_kernels and
// the README's SASS): the k loop is unrolled, so reads of consecutive words of one thread
// merge into LDS.128 wherever they are 16-byte aligned.
std::vector<shared_read> step_reads(kernel k, const mm::block_tiling& t, bool padded_a) {
  std::vector<shared_read> reads;
  const unsigned bm = t.bm, bn = t.bn, bk = t.bk, tm = t.tm, tn = t.tn;
  switch (k) {
    case kernel::coarse_1d:
      // A: a thread's row i, columns k0 .. k0+3 (one LDS.128 each); B: one word a column.
      for (unsigned i = 0; i < tm; ++i)
        for (unsigned k0 = 0; k0 < bk; k0 += 4)
          reads.push_back({16, [=](unsigned th) {
                             return mm::a_word(mm::coarse_row(th, bn, tm, i), k0, bm, bk, false);
                           }});
      for (unsigned kk = 0; kk < bk; ++kk)
        reads.push_back(
            {4, [=](unsigned th) { return mm::b_word(kk, mm::coarse_col(th, bn), bm, bn, bk); }});
      break;
    case kernel::register_2d:
      // A row-major: row i's columns k0 .. k0+3 merge (LDS.128); B: tn consecutive words a k.
      for (unsigned i = 0; i < tm; ++i)
        for (unsigned k0 = 0; k0 < bk; k0 += 4)
          reads.push_back({16, [=](unsigned th) {
                             return mm::a_word(mm::block2d_row(th, bn, tm, tn, i), k0, bm, bk,
                                               false);
                           }});
      for (unsigned kk = 0; kk < bk; ++kk)
        for (unsigned j = 0; j < tn; j += 4)
          reads.push_back({16, [=](unsigned th) {
                             return mm::b_word(kk, mm::block2d_col(th, bn, tn, j), bm, bn, bk);
                           }});
      break;
    case kernel::vectorized:
      for (unsigned kk = 0; kk < bk; ++kk) {
        for (unsigned i = 0; i < tm; i += 4)
          reads.push_back({16, [=](unsigned th) {
                             return mm::a_word(mm::block2d_row(th, bn, tm, tn, i), kk, bm, bk,
                                               true);
                           }});
        for (unsigned j = 0; j < tn; j += 4)
          reads.push_back({16, [=](unsigned th) {
                             return mm::b_word(kk, mm::block2d_col(th, bn, tn, j), bm, bn, bk);
                           }});
      }
      break;
    default: {
      // pipeline_a_word and pipeline_b_word: warp_tiled's words, or the pipeline's padded ones.
      const unsigned wm = t.wm, wn = t.wn, wm_iter = t.wm_iter(), wn_iter = t.wn_iter;
      for (unsigned kk = 0; kk < bk; ++kk) {
        for (unsigned mi = 0; mi < wm_iter; ++mi)
          for (unsigned i = 0; i < tm; i += 4)
            reads.push_back({16, [=](unsigned th) {
                               const unsigned r = mm::warp_tile_row(th, bn, wm, wn, wm_iter,
                                                                    wn_iter, tm, tn, mi, i);
                               return mm::pipeline_a_word(r, kk, bm, padded_a);
                             }});
        for (unsigned ni = 0; ni < wn_iter; ++ni)
          for (unsigned j = 0; j < tn; j += 4)
            reads.push_back({16, [=](unsigned th) {
                               const unsigned c = mm::warp_tile_col(th, bn, wn, wn_iter, tn, ni, j);
                               return mm::pipeline_b_word(kk, c, bm, bn, bk, padded_a);
                             }});
      }
    }
  }
  return reads;
}

std::pair<output_fn, unsigned> outputs_of(kernel k, const mm::block_tiling& t) {
  const unsigned bn = t.bn, tm = t.tm, tn = t.tn;
  switch (k) {
    case kernel::coarse_1d:
      return {[=](unsigned th, unsigned i) {
                return std::make_pair(mm::coarse_row(th, bn, tm, i), mm::coarse_col(th, bn));
              },
              tm};
    case kernel::register_2d:
    case kernel::vectorized:
      return {[=](unsigned th, unsigned o) {
                return std::make_pair(mm::block2d_row(th, bn, tm, tn, o / tn),
                                      mm::block2d_col(th, bn, tn, o % tn));
              },
              tm * tn};
    default: {
      const unsigned wm = t.wm, wn = t.wn, wm_iter = t.wm_iter(), wn_iter = t.wn_iter;
      // Store order: mi, i, ni, j.
      return {[=](unsigned th, unsigned o) {
                const unsigned j = o % tn, ni = o / tn % wn_iter, i = o / (tn * wn_iter) % tm,
                               mi = o / (tn * wn_iter * tm);
                return std::make_pair(
                    mm::warp_tile_row(th, bn, wm, wn, wm_iter, wn_iter, tm, tn, mi, i),
                    mm::warp_tile_col(th, bn, wn, wn_iter, tn, ni, j));
              },
              wm_iter * tm * wn_iter * tn};
    }
  }
}

bool any_lane(const warp_access& a) {
  return std::any_of(a.address.begin(), a.address.end(),
                     [](std::uint64_t address) { return address != model::inactive_lane; });
}

model::access_counts block_tiled_block(kernel k, const mm::block_tiling& t, bool cf, std::size_t n,
                                       unsigned bx, unsigned by, walk how) {
  const bool pipelined = k == kernel::cp_async_pipeline;
  const std::vector<shared_read> reads = step_reads(k, t, cf);
  const auto [output, outputs] = outputs_of(k, t);
  const bool wide = t.vec == 4 && mm::rows_are_16_byte_aligned(n);
  // cp_async_pipeline's B copies: 16 bytes only on rows that start on a sector (the kernel's
  // rule, rows_are_32_byte_aligned, which says why).
  const bool wide_copies = t.vec == 4 && mm::rows_are_32_byte_aligned(n);
  const std::size_t row0 = mm::block_first_row(by, t.bm), col0 = mm::block_first_col(bx, t.bn);
  const unsigned steps = mm::inner_steps(n, t.bk);
  const model::grid_axis step_axis =
      axis(steps, n / t.bk, model::repeat_period({float_bytes * t.bk, float_bytes * t.bk * n}));
  model::access_model m;
  // cp_async_pipeline's correction to m's counts: the predicated-off LDS of its LDGSTS.
  std::uint64_t predicated_off_lds = 0;
  model::for_each_warp_of_block(0, t.threads, [&](const model::warp_threads& w) {
    for (const auto& [step, times] : step_axis.walked(how)) {
      const auto s = static_cast<unsigned>(step);
      // The pipeline's tiles of step s sit in copy s mod 2; the others have one copy.
      const unsigned base =
          pipelined ? mm::stage_of(s, 2) * mm::pipeline_stage_words(t.bm, t.bn, t.bk, cf) : 0;
      // The A tile's slots, then the B tile's.
      for (unsigned tile = 0; tile < 2; ++tile) {
        const unsigned width = tile == 0 ? t.bk : t.bn;
        const unsigned slots = (tile == 0 ? t.bm * t.bk : t.bk * t.bn) / (t.vec * t.threads);
        // The pipeline's A slots and both tiles' words are its own (pipeline_a_slot_row,
        // pipeline_a_word, pipeline_b_word).
        const bool pipeline_a = pipelined && tile == 0;
        for (unsigned i = 0; i < slots; ++i) {
          const auto slot_of = [&](unsigned th) { return mm::thread_slot(th, i, t.threads); };
          const auto row_of = [&](unsigned th) {
            return pipeline_a ? mm::pipeline_a_slot_row(slot_of(th), t.bm, t.bk, cf)
                              : mm::slot_row(slot_of(th), width, t.vec);
          };
          const auto col_of = [&](unsigned th) {
            return pipeline_a ? mm::pipeline_a_slot_col(slot_of(th), t.bm, t.bk, cf)
                              : mm::slot_col(slot_of(th), width, t.vec);
          };
          const auto at = [&](unsigned th, unsigned q) {
            const unsigned r = row_of(th), c = col_of(th) + q;
            return tile == 0 ? element(buffer_a, row0 + r, mm::step_index(s, t.bk, c), n)
                             : element(buffer_b, mm::step_index(s, t.bk, r), col0 + c, n);
          };
          // The slot's word q in shared memory.
          const auto word = [&](unsigned th, unsigned q) {
            const unsigned r = row_of(th), c = col_of(th) + q;
            if (pipelined)
              return base + (tile == 0 ? mm::pipeline_a_word(r, c, t.bm, cf)
                                       : mm::pipeline_b_word(r, c, t.bm, t.bn, t.bk, cf));
            return base + (tile == 0 ? mm::a_word(r, c, t.bm, t.bk, t.a_transposed)
                                     : mm::b_word(r, c, t.bm, t.bn, t.bk));
          };
          if (pipelined && tile == 1) {
            // B: one cp.async a slot (16 bytes) or a float (4 bytes) by the lanes inside the
            // matrix: a global load to the L1's counters, counted by the sectors its lanes touch
            // (its write to shared memory is counted under LDGSTS, not STS), with its three
            // predicated-off LDS when any lane copies; the lanes outside store 0 (STS).
            const unsigned copies = wide_copies ? 1 : 4, bytes = wide_copies ? 16 : 4;
            for (unsigned q = 0; q < copies; ++q) {
              const warp_access copy = lanes(memory_space::global, access_kind::load, bytes, w,
                                             [&](unsigned th) { return at(th, q); });
              m.record(copy, times);
              if (wide_copies || any_lane(copy))  // predicated, or behind a branch
                predicated_off_lds += predicated_off_lds_per_ldgsts * times;
              m.record(lanes(memory_space::shared, access_kind::store, bytes, w,
                             [&](unsigned th) -> std::optional<std::uint64_t> {
                               if (at(th, q)) return std::nullopt;
                               return word_bytes(word(th, q));
                             }),
                       times);
            }
            continue;
          }
          if (t.vec == 1 || wide) {
            m.record(lanes(memory_space::global, access_kind::load, 4 * t.vec, w,
                           [&](unsigned th) { return at(th, 0); }),
                     times);
          } else {
            for (unsigned q = 0; q < 4; ++q)
              m.record(lanes(memory_space::global, access_kind::load, 4, w,
                             [&](unsigned th) { return at(th, q); }),
                       times);
          }
          // The slot into shared memory: A transposed as 4 words, B as one 16-byte store.
          if (tile == 0 && t.vec == 4) {
            for (unsigned q = 0; q < 4; ++q)
              m.record(lanes(memory_space::shared, access_kind::store, 4, w,
                             [&](unsigned th) {
                               return std::optional<std::uint64_t>(word_bytes(word(th, q)));
                             }),
                       times);
          } else {
            m.record(lanes(memory_space::shared, access_kind::store, 4 * t.vec, w,
                           [&](unsigned th) {
                             return std::optional<std::uint64_t>(word_bytes(word(th, 0)));
                           }),
                     times);
          }
        }
      }
      for (const shared_read& r : reads)
        m.record(lanes(memory_space::shared, access_kind::load, r.width, w,
                       [&](unsigned th) {
                         return std::optional<std::uint64_t>(word_bytes(base + r.word(th)));
                       }),
                 times);
    }
    for (unsigned o = 0; o < outputs; ++o)
      m.record(lanes(memory_space::global, access_kind::store, 4, w, [&](unsigned th) {
        const auto [r, c] = output(th, o);
        return element(buffer_c, row0 + r, col0 + c, n);
      }));
  });
  model::access_counts c = m.counts();
  c.shared_ld_instructions += predicated_off_lds;
  return c;
}

model::access_counts predict_block_tiled(kernel k, std::size_t n, unsigned config, walk how) {
  const mm::block_tiling& t = tiling_of(k, config);
  const mm::launch_dims d = mm::block_tiled_dims(n, t);
  const model::grid_axis x = axis(d.grid.x, n / t.bn, model::repeat_period({float_bytes * t.bn}));
  const model::grid_axis y =
      axis(d.grid.y, n / t.bm, model::repeat_period({float_bytes * t.bm * n}));
  const bool cf = conflict_free_a(k, config);
  const auto one_block = [&](std::uint64_t bx, std::uint64_t by) {
    return block_tiled_block(k, t, cf, n, static_cast<unsigned>(bx), static_cast<unsigned>(by),
                             how);
  };
  return how == walk::every_block ? model::sum_every_block(x, y, one_block)
                                  : model::sum_block_classes(x, y, one_block);
}

// pad_to_64's kernels, 2D blocks.
using model::warp_threads_2d;

template <class Fn>
warp_access lanes_2d(memory_space space, access_kind kind, unsigned width, const warp_threads_2d& w,
                     Fn&& fn) {
  return model::make_warp_access(space, kind, width, w,
                                 [&](const warp_threads_2d& ww, unsigned lane) {
                                   return fn(ww.thread_x(lane), ww.thread_y(lane));
                                 });
}

// A copy of `rows_cols` x `rows_cols` threads between an n-wide source and a side-wide
// destination (pad: read where inside n, write all; unpad: both where inside n).
model::access_counts copy_kernel(std::size_t n, std::size_t side, bool pad, unsigned src_buffer,
                                 unsigned dst_buffer, walk how) {
  const std::size_t extent = pad ? side : n;
  const mm::launch_dims d = mm::pad_copy_dims(extent);
  const std::size_t src_w = pad ? n : side, dst_w = pad ? side : n;
  const model::grid_axis x = axis(d.grid.x, n / mm::copy_block_x, 1);
  const model::grid_axis y = axis(d.grid.y, n / mm::copy_block_y,
                                  model::repeat_period({float_bytes * mm::copy_block_y * src_w,
                                                        float_bytes * mm::copy_block_y * dst_w}));
  const auto one_block = [&](std::uint64_t bx, std::uint64_t by) {
    model::access_model m;
    model::for_each_warp_of_block_2d(
        static_cast<unsigned>(bx), static_cast<unsigned>(by), mm::copy_block_x, mm::copy_block_y,
        [&](const warp_threads_2d& w) {
          const auto rc = [&](unsigned tx, unsigned ty) {
            return std::make_pair(mm::output_row(w.block_y, mm::copy_block_y, ty),
                                  mm::output_col(w.block_x, mm::copy_block_x, tx));
          };
          m.record(lanes_2d(memory_space::global, access_kind::load, 4, w,
                            [&](unsigned tx, unsigned ty) -> std::optional<std::uint64_t> {
                              const auto [r, c] = rc(tx, ty);
                              if (r >= extent || c >= extent || r >= n || c >= n)
                                return std::nullopt;
                              return buffer_base(src_buffer) +
                                     mm::element_index(r, c, src_w) * float_bytes;
                            }));
          m.record(lanes_2d(memory_space::global, access_kind::store, 4, w,
                            [&](unsigned tx, unsigned ty) -> std::optional<std::uint64_t> {
                              const auto [r, c] = rc(tx, ty);
                              if (r >= extent || c >= extent) return std::nullopt;
                              return buffer_base(dst_buffer) +
                                     mm::element_index(r, c, dst_w) * float_bytes;
                            }));
        });
    return m.counts();
  };
  return how == walk::every_block ? model::sum_every_block(x, y, one_block)
                                  : model::sum_block_classes(x, y, one_block);
}

constexpr unsigned buffer_a_padded = 3, buffer_b_padded = 4, buffer_c_padded = 5;

model::access_counts pad_product(std::size_t n, walk how) {
  const std::size_t side = mm::padded_side(n);
  const mm::launch_dims d = mm::pad_product_dims(n);
  constexpr unsigned tile = mm::pad_tile;
  // No guard: every block and step is whole; a block step moves 128 bytes, a tile step 128
  // bytes of A and 32 rows of B.
  const model::grid_axis x = axis(d.grid.x, d.grid.x, 1);
  const model::grid_axis y = axis(d.grid.y, d.grid.y, 1);
  const model::grid_axis steps = axis(side / tile, side / tile, 1);
  const auto one_block = [&](std::uint64_t bx, std::uint64_t by) {
    model::access_model m;
    const std::size_t row0 = mm::block_first_row(static_cast<unsigned>(by), tile);
    const std::size_t col0 = mm::block_first_col(static_cast<unsigned>(bx), tile);
    model::for_each_warp_of_block_2d(
        static_cast<unsigned>(bx), static_cast<unsigned>(by), tile, mm::pad_block_y,
        [&](const warp_threads_2d& w) {
          const auto global = [&](access_kind kind, unsigned buffer, auto rc) {
            return lanes_2d(memory_space::global, kind, 4, w,
                            [&](unsigned tx, unsigned ty) -> std::optional<std::uint64_t> {
                              const auto [r, c] = rc(tx, ty);
                              return buffer_base(buffer) +
                                     mm::element_index(r, c, side) * float_bytes;
                            });
          };
          const auto shared = [&](access_kind kind, unsigned width, auto word) {
            return lanes_2d(memory_space::shared, kind, width, w,
                            [&](unsigned tx, unsigned ty) -> std::optional<std::uint64_t> {
                              return word_bytes(word(tx, ty));
                            });
          };
          for (const auto& [step, times] : steps.walked(how)) {
            const auto s = static_cast<unsigned>(step);
            for (unsigned i = 0; i < mm::pad_outputs; ++i) {
              m.record(global(access_kind::load, buffer_a_padded,
                              [&](unsigned tx, unsigned ty) {
                                return std::make_pair(row0 + mm::pad_row(ty, i),
                                                      mm::step_index(s, tile, tx));
                              }),
                       times);
              m.record(global(access_kind::load, buffer_b_padded,
                              [&](unsigned tx, unsigned ty) {
                                return std::make_pair(mm::step_index(s, tile, mm::pad_row(ty, i)),
                                                      col0 + tx);
                              }),
                       times);
              m.record(shared(access_kind::store, 4,
                              [&](unsigned tx, unsigned ty) {
                                return mm::tile_word(mm::pad_row(ty, i), tx, tile);
                              }),
                       times);
              m.record(shared(access_kind::store, 4,
                              [&](unsigned tx, unsigned ty) {
                                return tile * tile + mm::tile_word(mm::pad_row(ty, i), tx, tile);
                              }),
                       times);
            }
            // A: a thread's row i, 4 columns an LDS.128; B: one word a column.
            for (unsigned i = 0; i < mm::pad_outputs; ++i)
              for (unsigned k0 = 0; k0 < tile; k0 += 4)
                m.record(shared(access_kind::load, 16,
                                [&](unsigned, unsigned ty) {
                                  return mm::tile_word(mm::pad_row(ty, i), k0, tile);
                                }),
                         times);
            for (unsigned kk = 0; kk < tile; ++kk)
              m.record(shared(access_kind::load, 4,
                              [&](unsigned tx, unsigned) {
                                return tile * tile + mm::tile_word(kk, tx, tile);
                              }),
                       times);
          }
          for (unsigned i = 0; i < mm::pad_outputs; ++i)
            m.record(global(access_kind::store, buffer_c_padded, [&](unsigned tx, unsigned ty) {
              return std::make_pair(row0 + mm::pad_row(ty, i), col0 + tx);
            }));
        });
    return m.counts();
  };
  return how == walk::every_block ? model::sum_every_block(x, y, one_block)
                                  : model::sum_block_classes(x, y, one_block);
}

}  // namespace

const mm::block_tiling& tiling_of(kernel k, unsigned config) {
  switch (k) {
    case kernel::coarse_1d:
      return mm::coarse_1d_tiling;
    case kernel::register_2d:
      return mm::register_2d_tiling;
    case kernel::vectorized:
      return mm::vectorized_tiling;
    default:
      return mm::warp_tiled_tiling(config);
  }
}

model::access_counts predict(kernel k, std::size_t n, unsigned config, walk how) {
  mm::check_side(n);
  model::access_counts c;
  switch (k) {
    case kernel::pad_product:
      c = pad_product(n, how);
      break;
    case kernel::pad_with_copies: {
      const std::size_t side = mm::padded_side(n);
      c = copy_kernel(n, side, true, buffer_a, buffer_a_padded, how);
      c += copy_kernel(n, side, true, buffer_b, buffer_b_padded, how);
      c += pad_product(n, how);
      c += copy_kernel(n, side, false, buffer_c_padded, buffer_c, how);
      break;
    }
    default:
      c = predict_block_tiled(k, n, config, how);
  }
  c.shared_ld_inst_exact = true;
  return c;
}

std::uint64_t shared_loads_per_warp_step(kernel k, unsigned config) {
  if (k == kernel::pad_product || k == kernel::pad_with_copies)
    return mm::pad_outputs * mm::pad_tile / 4 + mm::pad_tile;
  return step_reads(k, tiling_of(k, config), conflict_free_a(k, config)).size();
}

double prediction_cost(kernel k, std::size_t n, unsigned config) {
  if (k == kernel::pad_product || k == kernel::pad_with_copies)
    return 4.0 * 8 * (4.0 * 4 + 64) + 4 * 8 * 8.0 * 2;
  const mm::block_tiling& t = tiling_of(k, config);
  const double warps = t.threads / 32.0;
  const double step_classes = std::min<double>(32, static_cast<double>(n) / t.bk) + 1;
  const double per_step = 2.0 * (t.bm * t.bk + t.bk * t.bn) / (t.vec * t.threads) * 4 +
                          static_cast<double>(step_reads(k, t, conflict_free_a(k, config)).size());
  return 4.0 * warps * (step_classes * per_step + t.outputs_per_thread());
}

unsigned threads_per_block(kernel k, unsigned config) {
  if (k == kernel::pad_product || k == kernel::pad_with_copies)
    return mm::pad_tile * mm::pad_block_y;
  return tiling_of(k, config).threads;
}

}  // namespace cudalab::labs::regtile_model
