// Lab 05 predictions: each kernel's memory instructions, warp by warp, in the order and form
// the release SASS issues them (see reduction_model.hpp and kernels/reduction/*.cu).
#include "reduction_model.hpp"

#include "reduction/reduction_index.cuh"
#include "reduction/reduction_kernels.cuh"

#include "cudalab/check.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace cudalab::labs::reduction_model {
namespace {

using namespace cudalab::reduction;
using model::access_counts;
using model::access_kind;
using model::memory_space;
using model::warp_access;

constexpr unsigned word_bytes = 4;

bool any_active(const warp_access& a) {
  for (std::uint64_t address : a.address)
    if (address != model::inactive_lane) return true;
  return false;
}

// Accumulates warp instructions. A shared instruction issued with every lane predicated off
// still counts as an instruction (the hardware counts it) but moves no data.
class sink {
 public:
  void issue(const warp_access& a) {
    m_model.record(a);
    if (a.space == memory_space::shared && !any_active(a))
      ++(a.kind == access_kind::load ? m_ld_off : m_st_off);
  }
  access_counts counts() const {
    access_counts c = m_model.counts();
    c.shared_ld_instructions += m_ld_off;
    c.shared_st_instructions += m_st_off;
    return c;
  }

 private:
  model::access_model m_model;
  std::uint64_t m_ld_off = 0, m_st_off = 0;
};

access_counts scaled(const access_counts& c, std::uint64_t times) {
  access_counts r;
  for (std::uint64_t i = 0; i < times % 2; ++i) r += c;
  if (times >= 2) {
    const access_counts half = scaled(c, times / 2);
    r += half;
    r += half;
  }
  return r;
}

// One warp's shared access: word_of(tid) gives the word a thread touches, or nullopt when the
// thread is predicated off.
template <class Fn>
warp_access shared_access(access_kind kind, unsigned warp, unsigned block_dim, Fn&& word_of) {
  warp_access a = warp_access::make(memory_space::shared, kind, word_bytes);
  for (unsigned lane = 0; lane < model::warp_size; ++lane) {
    const unsigned tid = warp * model::warp_size + lane;
    if (tid >= block_dim) continue;
    if (const std::optional<unsigned> w = word_of(tid))
      a.address[lane] = std::uint64_t{*w} * word_bytes;
  }
  return a;
}

// One warp's global access: element_of(tid) gives the element index, or nullopt.
template <class Fn>
warp_access global_access(access_kind kind, std::uint64_t base, unsigned width, unsigned warp,
                          unsigned block_dim, Fn&& element_of) {
  warp_access a = warp_access::make(memory_space::global, kind, width);
  for (unsigned lane = 0; lane < model::warp_size; ++lane) {
    const unsigned tid = warp * model::warp_size + lane;
    if (tid >= block_dim) continue;
    if (const std::optional<std::uint64_t> e = element_of(tid)) a.address[lane] = base + *e * width;
  }
  return a;
}

std::optional<unsigned> when(bool active, unsigned word) {
  return active ? std::optional<unsigned>(word) : std::nullopt;
}

// `if (tid < s) sdata[tid] += sdata[tid + s]` for s = block/2 down to stop (exclusive):
// predicated, so every warp issues LDS, LDS, STS at every step.
void tree_sequential(sink& out, unsigned block, unsigned stop) {
  const unsigned warps = block / model::warp_size;
  for (unsigned s = block / 2; s > stop; s >>= 1)
    for (unsigned w = 0; w < warps; ++w) {
      out.issue(shared_access(access_kind::load, w, block,
                              [&](unsigned t) { return when(sequential_active(t, s), t); }));
      out.issue(shared_access(access_kind::load, w, block,
                              [&](unsigned t) { return when(sequential_active(t, s), t + s); }));
      out.issue(shared_access(access_kind::store, w, block,
                              [&](unsigned t) { return when(sequential_active(t, s), t); }));
    }
}

// Thread 0 reads sdata[0] (LDS) and writes the block's result (STG).
void write_result(sink& out, unsigned block, std::uint64_t result_index, bool read_shared) {
  if (read_shared)
    out.issue(
        shared_access(access_kind::load, 0, block, [](unsigned t) { return when(t == 0, 0); }));
  out.issue(global_access(access_kind::store, out_base, word_bytes, 0, block, [&](unsigned t) {
    return t == 0 ? std::optional<std::uint64_t>(result_index) : std::nullopt;
  }));
}

// Everything block `b` of a tree kernel issues.
void tree_block(kernel k, std::uint64_t n, unsigned block, unsigned b, sink& out) {
  const unsigned warps = block / model::warp_size;
  const bool pairs = k == kernel::first_add || k == kernel::warp_shuffle;
  for (unsigned w = 0; w < warps; ++w) {
    if (!pairs) {
      out.issue(global_access(access_kind::load, in_base, word_bytes, w, block, [&](unsigned t) {
        const std::uint64_t i = tree_load_index(b, t, block);
        return i < n ? std::optional<std::uint64_t>(i) : std::nullopt;
      }));
    } else {
      for (unsigned half = 0; half < 2; ++half)
        out.issue(global_access(access_kind::load, in_base, word_bytes, w, block, [&](unsigned t) {
          const std::uint64_t i = std::uint64_t{first_add_index(b, t, block)} + half * block;
          return i < n ? std::optional<std::uint64_t>(i) : std::nullopt;
        }));
    }
    out.issue(shared_access(access_kind::store, w, block,
                            [](unsigned t) { return std::optional<unsigned>(t); }));
  }
  switch (k) {
    case kernel::interleaved_divergent:
      // A real branch: only warps with an active lane enter the call (LDS, LDS, STS).
      for (unsigned s = 1; s < block; s *= 2)
        for (unsigned w = 0; w < warps; ++w) {
          auto active = [&](unsigned t) { return interleaved_divergent_active(t, s); };
          const warp_access own = shared_access(access_kind::load, w, block,
                                                [&](unsigned t) { return when(active(t), t); });
          if (!any_active(own)) continue;
          out.issue(own);
          out.issue(shared_access(access_kind::load, w, block,
                                  [&](unsigned t) { return when(active(t), t + s); }));
          out.issue(shared_access(access_kind::store, w, block,
                                  [&](unsigned t) { return when(active(t), t); }));
        }
      write_result(out, block, b, true);
      break;
    case kernel::interleaved_strided:
      for (unsigned s = 1; s < block; s *= 2)
        for (unsigned w = 0; w < warps; ++w) {
          auto word = [&](unsigned t, unsigned offset) {
            const unsigned index = interleaved_strided_index(t, s);
            return when(index < block, index + offset);
          };
          out.issue(
              shared_access(access_kind::load, w, block, [&](unsigned t) { return word(t, 0); }));
          out.issue(
              shared_access(access_kind::load, w, block, [&](unsigned t) { return word(t, s); }));
          out.issue(
              shared_access(access_kind::store, w, block, [&](unsigned t) { return word(t, 0); }));
        }
      write_result(out, block, b, true);
      break;
    case kernel::sequential:
    case kernel::first_add:
      tree_sequential(out, block, 0);
      write_result(out, block, b, true);
      break;
    case kernel::warp_shuffle:
      tree_sequential(out, block, 32);
      // Warp 0: LDS sdata[tid], then `@P0 LDS sdata[tid + 32]`, predicated off when block == 32.
      out.issue(shared_access(access_kind::load, 0, block,
                              [](unsigned t) { return std::optional<unsigned>(t); }));
      out.issue(shared_access(access_kind::load, 0, block,
                              [&](unsigned t) { return when(block >= 64, t + 32); }));
      write_result(out, block, b, false);
      break;
    default:
      break;
  }
}

// The finishing pass: one block loops over n partial sums, then the sequential tree.
void finish_block_traffic(std::uint64_t n, unsigned block, sink& out) {
  const unsigned warps = block / model::warp_size;
  for (unsigned w = 0; w < warps; ++w) {
    for (unsigned k = 0;; ++k) {
      const warp_access a =
          global_access(access_kind::load, out_base, word_bytes, w, block, [&](unsigned t) {
            const std::uint64_t j = finish_index(t, k, block);
            return j < n ? std::optional<std::uint64_t>(j) : std::nullopt;
          });
      if (!any_active(a)) break;
      out.issue(a);
    }
    out.issue(shared_access(access_kind::store, w, block,
                            [](unsigned t) { return std::optional<unsigned>(t); }));
  }
  tree_sequential(out, block, 0);
  write_result(out, block, 0, true);
}

// Block b of the grid-stride kernel without its vector loop: the tail load, one STS a warp
// (lane 0), and warp 0's predicated LDS of the warp sums.
void grid_stride_block_rest(std::uint64_t n, unsigned block, unsigned b, sink& out) {
  const unsigned warps = block / model::warp_size;
  for (unsigned w = 0; w < warps; ++w) {
    out.issue(global_access(access_kind::load, in_base, word_bytes, w, block, [&](unsigned t) {
      const unsigned global_id = b * block + t;
      return global_id < n % 4 ? std::optional<std::uint64_t>(
                                     grid_stride_tail_index(static_cast<unsigned>(n), global_id))
                               : std::nullopt;
    }));
    out.issue(shared_access(access_kind::store, w, block,
                            [](unsigned t) { return when(lane_of(t) == 0, warp_of(t)); }));
  }
  out.issue(shared_access(access_kind::load, 0, block,
                          [&](unsigned t) { return when(lane_of(t) < warps, lane_of(t)); }));
}

// One warp's k-th vector load.
warp_access grid_stride_vector_load(std::uint64_t vectors, unsigned block, unsigned b, unsigned w,
                                    unsigned k, unsigned stride) {
  return global_access(access_kind::load, in_base, 16, w, block, [&](unsigned t) {
    const std::uint64_t v = grid_stride_vector_index(b * block + t, k, stride);
    return v < vectors ? std::optional<std::uint64_t>(v) : std::nullopt;
  });
}

std::uint64_t elements_per_block(kernel k, unsigned block) {
  return (k == kernel::first_add || k == kernel::warp_shuffle) ? 2ull * block : block;
}

void check(kernel k, std::size_t n, unsigned block) {
  check_size(n);
  if (k == kernel::finish ? block % model::warp_size != 0 || block == 0 : !is_valid_block(block))
    check_block(block);
}

access_counts predict_grid_stride(std::size_t n, unsigned block, bool brute_force) {
  const unsigned grid = grid_stride_blocks(n, block);
  const unsigned stride = grid * block;
  const std::uint64_t vectors = n / 4;
  sink rest;
  for (unsigned b = 0; b < grid; ++b) grid_stride_block_rest(n, block, b, rest);
  access_counts c = rest.counts();
  if (brute_force) {
    sink loads;
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned w = 0; w < block / model::warp_size; ++w)
        for (unsigned k = 0;; ++k) {
          const warp_access a = grid_stride_vector_load(vectors, block, b, w, k, stride);
          if (!any_active(a)) break;
          loads.issue(a);
        }
    return c + loads.counts();
  }
  // The stride is a multiple of 32 threads, so warp iterations tile the vectors in aligned runs
  // of 32: every run but a partial last one costs the same. Walk the first and the last.
  const std::uint64_t runs = vectors / model::warp_size;
  sink loads;
  if (runs > 0)
    c += scaled(count_warp_access(grid_stride_vector_load(vectors, block, 0, 0, 0, stride)), runs);
  if (vectors % model::warp_size != 0) {
    const std::uint64_t first = runs * model::warp_size;  // vector index of the partial run
    const auto k = static_cast<unsigned>(first / stride);
    const auto global_id = static_cast<unsigned>(first % stride);
    loads.issue(grid_stride_vector_load(vectors, block, global_id / block,
                                        global_id % block / model::warp_size, k, stride));
  }
  return c + loads.counts();
}

}  // namespace

unsigned blocks_of(kernel k, std::size_t n, unsigned block) {
  switch (k) {
    case kernel::first_add:
    case kernel::warp_shuffle:
      return first_add_blocks(n, block);
    case kernel::finish:
      return 1;
    case kernel::grid_stride:
      return grid_stride_blocks(n, block);
    default:
      return tree_blocks(n, block);
  }
}

// The kernels that are not walked block by block: the grid-stride one (every block alike, or
// not, as `brute_force` says) and the finishing block. Nothing for the tree kernels.
std::optional<access_counts> predict_untiled(kernel k, std::size_t n, unsigned block,
                                             bool brute_force) {
  check(k, n, block);
  if (k == kernel::grid_stride) return predict_grid_stride(n, block, brute_force);
  if (k != kernel::finish) return std::nullopt;
  sink s;
  finish_block_traffic(n, block, s);
  return s.counts();
}

access_counts predict(kernel k, std::size_t n, unsigned block) {
  if (const auto c = predict_untiled(k, n, block, false)) return *c;
  const std::uint64_t per_block = elements_per_block(k, block);
  const unsigned blocks = blocks_of(k, n, block);
  const std::uint64_t whole = n / per_block;
  access_counts c;
  if (whole > 0) {
    sink one;
    tree_block(k, n, block, 0, one);
    c += scaled(one.counts(), whole);
  }
  if (blocks > whole) {
    sink last;
    tree_block(k, n, block, blocks - 1, last);
    c += last.counts();
  }
  return c;
}

access_counts predict_brute_force(kernel k, std::size_t n, unsigned block) {
  if (const auto c = predict_untiled(k, n, block, true)) return *c;
  sink s;
  const unsigned blocks = blocks_of(k, n, block);
  for (unsigned b = 0; b < blocks; ++b) tree_block(k, n, block, b, s);
  return s.counts();
}

access_counts predict_two_pass(kernel first, std::size_t n, unsigned block) {
  return predict(first, n, block) +
         predict(kernel::finish, blocks_of(first, n, block), finish_block);
}

double prediction_cost(kernel first, std::size_t n, unsigned block, bool finish_on_gpu) {
  check(first, n, block);
  // A block of `block` threads, walked for its accesses (at most 3 a tree step and 4 more, for
  // each warp of two blocks) and through the SASS (at most 50 instructions a tree step and 100
  // more, for each warp of one block): about 4,400 at 256 threads, 19,000 at 1,024. (A bound
  // of 2e4 for every block made lab 05's estimates 8 to 17 times the time they took.)
  const auto walked = [](unsigned threads) {
    const double warps = std::max(1.0, threads / static_cast<double>(model::warp_size));
    const double steps = std::log2(static_cast<double>(std::max(threads, 2u)));
    return 2 * warps * (3 * steps + 4) + warps * (50 * steps + 100);
  };
  const double blocks_walked = walked(block);
  // A load-loop trip: a load to walk, and at most 10 instructions of the loop in the SASS.
  constexpr double per_trip = 11;
  const auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
  double cost = blocks_walked;
  if (first == kernel::grid_stride) {
    const std::uint64_t threads = std::uint64_t{grid_stride_blocks(n, block)} * block;
    // Every warp of the grid: its tail load, its store and its loop context; the distinct
    // contexts (a few) each walk the loop.
    cost += 4.0 * static_cast<double>(threads / model::warp_size) +
            4 * per_trip * static_cast<double>(ceil_div(n / 4 + 1, threads));
  }
  if (finish_on_gpu) {
    const std::uint64_t partials = blocks_of(first, n, block);
    // 32 warps, each with its own loop context: every trip walked by every warp.
    cost += walked(finish_block) +
            32 * per_trip * static_cast<double>(ceil_div(partials, finish_block));
  }
  return cost;
}

}  // namespace cudalab::labs::reduction_model
