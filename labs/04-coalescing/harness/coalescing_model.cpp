// Lab 04's predictions: what the hardware counters will read for each variant.
//
// Each function walks the launch warp by warp (model::for_each_warp) and asks the kernel's own
// index functions (coalescing/coalescing_index.cuh) which address every lane touches, then
// records one warp_access per memory instruction the compiler emits for that kernel (the SASS
// listed at the top of each kernel file). Lanes that fail the kernel's bounds guard are
// inactive; a warp instruction with no active lane costs nothing.
//
// Whole blocks repeat (cudalab/model/block_classes.hpp): every kernel here moves its addresses
// by a fixed number of bytes a block, so a prediction walks one block of each repeating class
// and the partial last block, and costs the same at 2^10 elements as at 2^36.
#include "coalescing_lab.hpp"
#include "coalescing_walk.hpp"

#include "coalescing/coalescing_index.cuh"

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <optional>
#include <stdexcept>
#include <utility>

namespace cudalab::labs {
namespace {

using namespace cudalab::coalescing;
using model::access_model;
using model::warp_threads;
using namespace coalescing_walk;

// Bytes the addresses of one buffer move from block b to block b + 1, from the kernel's index
// function: first_index(b) is the index thread 0 of block b touches, element_bytes its size.
template <class IndexOfBlock>
std::uint64_t bytes_per_block(std::uint64_t element_bytes, IndexOfBlock&& first_index) {
  return (first_index(1) - first_index(0)) * element_bytes;
}

// The launch of each kernel, cut into whole, edge and idle blocks (one thread an element,
// guarded by i < threads) with the period after which whole blocks repeat.
model::grid_axis axis_of(coalescing_kind kind, const launch_config& c) {
  const auto t = static_cast<unsigned>(c.block);
  const std::size_t threads = coalescing_threads(kind, c.size);
  const auto first_element = [t](std::uint64_t b) { return element_index(b, t, 0); };
  switch (kind) {
    case coalescing_kind::aos_float3:
      return model::grid_axis::guarded(threads, t, {bytes_per_block(4, [&](std::uint64_t b) {
                                         return aos_float_index(first_element(b), 0);
                                       })});
    case coalescing_kind::aos_float3_staged:
      // The tile's words do not depend on the block.
      return model::grid_axis::guarded(
          threads, t,
          {bytes_per_block(4, [&](std::uint64_t b) { return staged_global_float(b, t, 0, 0); })});
    case coalescing_kind::aos_float4:
      return model::grid_axis::guarded(threads, t, {bytes_per_block(16, first_element)});
    case coalescing_kind::soa:
    case coalescing_kind::uchar4_packed:
      return model::grid_axis::guarded(threads, t, {bytes_per_block(4, first_element)});
    case coalescing_kind::char_per_thread:
      return model::grid_axis::guarded(threads, t, {bytes_per_block(1, first_element)});
    case coalescing_kind::offset: {
      const auto k = static_cast<unsigned>(c.param);
      return model::grid_axis::guarded(
          threads, t,
          {bytes_per_block(4, [&](std::uint64_t b) { return offset_index(first_element(b), k); })});
    }
    case coalescing_kind::stride: {
      const auto s = static_cast<unsigned>(c.param);
      return model::grid_axis::guarded(
          threads, t,
          {bytes_per_block(4, [&](std::uint64_t b) { return stride_index(first_element(b), s); }),
           bytes_per_block(4, first_element)});
    }
  }
  // A kind not listed here is still predicted exactly, walking every block.
  model::grid_axis every_block = model::grid_axis::guarded(threads, t, {});
  every_block.whole = 0;
  return every_block;
}

// Warp instructions each warp issues (the records of the predict_ functions below).
unsigned warp_instructions(coalescing_kind kind) {
  switch (kind) {
    case coalescing_kind::aos_float3:
    case coalescing_kind::soa:
      return 3 * float3_components;
    case coalescing_kind::aos_float3_staged:
      return 5 * float3_components + 2 * float3_components;
    case coalescing_kind::aos_float4:
      return 3;
    case coalescing_kind::char_per_thread:
    case coalescing_kind::uchar4_packed:
    case coalescing_kind::offset:
    case coalescing_kind::stride:
      return 2;
  }
  throw std::invalid_argument("unknown coalescing_kind");
}

// One warp instruction: lane -> index (nullopt: inactive), scaled by `scale` bytes onto `base`.
// Lanes past the warp's last thread stay inactive (model::warp_access::make).
template <class IndexFn>
model::warp_access lanes(model::memory_space space, model::access_kind kind, unsigned width,
                         unsigned scale, const warp_threads& w, std::uint64_t base,
                         IndexFn&& index) {
  model::warp_access a = model::warp_access::make(space, kind, width);
  for (unsigned lane = 0; lane < w.lanes; ++lane)
    if (const opt_address i = index(w, lane)) a.address[lane] = base + *i * scale;
  return a;
}

// A global access of `width` bytes at element indices of one buffer.
template <class IndexFn>
model::warp_access global(model::access_kind kind, unsigned width, const warp_threads& w,
                          std::uint64_t base, IndexFn&& index) {
  return lanes(model::memory_space::global, kind, width, width, w, base, index);
}

// A 4-byte shared access at word indices of the block's tile.
template <class IndexFn>
model::warp_access shared(model::access_kind kind, const warp_threads& w, IndexFn&& word) {
  return lanes(model::memory_space::shared, kind, 4, sizeof(float), w, 0, word);
}

constexpr auto load = model::access_kind::load;
constexpr auto store = model::access_kind::store;

// A copy kernel: each warp loads `width` bytes a lane from buffer 0 at load_at and stores them
// to buffer 1 at store_at.
template <class LoadIndex, class StoreIndex>
model::access_counts predict_copy(const launch_config& c, walk how, const model::grid_axis& axis,
                                  unsigned width, LoadIndex load_at, StoreIndex store_at) {
  return walk_launch(how, axis, static_cast<unsigned>(c.block),
                     [&](const warp_threads& w, access_model& m) {
                       m.record(global(load, width, w, model_buffer_base(0), load_at));
                       m.record(global(store, width, w, model_buffer_base(1), store_at));
                     });
}

// aos_float3_naive_kernel: 3 LDG.E (x, y, z of data[i]), 3 STG.E back, 3 STG.E to out[i].
model::access_counts predict_aos_float3(const launch_config& c, walk how,
                                        const model::grid_axis& axis) {
  const std::uint64_t data = model_buffer_base(0), out = model_buffer_base(1);
  return walk_launch(
      how, axis, static_cast<unsigned>(c.block), [&](const warp_threads& w, access_model& m) {
        for (unsigned comp = 0; comp < float3_components; ++comp) {
          const auto index =
              guarded_by(c.size, [comp](std::uint64_t i) { return aos_float_index(i, comp); });
          m.record(global(load, 4, w, data, index));
          m.record(global(store, 4, w, data, index));
          m.record(global(store, 4, w, out, index));
        }
      });
}

// aos_float3_staged_kernel: per pass, LDG.E + STS into the tile; then 3 LDS + 3 STS updating
// the thread's float3 at words 3t..3t+2; per pass, LDS + 2 STG.E (data and out).
model::access_counts predict_aos_float3_staged(const launch_config& c, walk how,
                                               const model::grid_axis& axis) {
  const std::size_t n = c.size;
  const std::uint64_t floats = std::uint64_t{float3_components} * n;
  const auto threads = static_cast<unsigned>(c.block);
  const std::uint64_t data = model_buffer_base(0), out = model_buffer_base(1);
  return walk_launch(how, axis, threads, [&](const warp_threads& w, access_model& m) {
    for (unsigned pass = 0; pass < float3_components; ++pass) {
      auto global_float = [&](const warp_threads& ww, unsigned lane) -> opt_address {
        const std::uint64_t g =
            staged_global_float(ww.block, threads, pass, ww.thread_in_block(lane));
        if (g >= floats) return std::nullopt;
        return g;
      };
      auto tile_word = [&](const warp_threads& ww, unsigned lane) -> opt_address {
        if (!global_float(ww, lane)) return std::nullopt;
        return staged_tile_word(pass, threads, ww.thread_in_block(lane));
      };
      m.record(global(load, 4, w, data, global_float));
      m.record(shared(store, w, tile_word));
      m.record(shared(load, w, tile_word));
      m.record(global(store, 4, w, data, global_float));
      m.record(global(store, 4, w, out, global_float));
    }
    for (unsigned comp = 0; comp < float3_components; ++comp) {
      auto own_word = [&](const warp_threads& ww, unsigned lane) -> opt_address {
        if (element(ww, lane) >= n) return std::nullopt;
        return aos_float_index(ww.thread_in_block(lane), comp);
      };
      m.record(shared(load, w, own_word));
      m.record(shared(store, w, own_word));
    }
  });
}

// aos_float4_kernel: LDG.E.128, STG.E.128 back, STG.E.128 to out.
model::access_counts predict_aos_float4(const launch_config& c, walk how,
                                        const model::grid_axis& axis) {
  const std::uint64_t data = model_buffer_base(0), out = model_buffer_base(1);
  const auto index = guarded_by(c.size, own_element);
  return walk_launch(how, axis, static_cast<unsigned>(c.block),
                     [&](const warp_threads& w, access_model& m) {
                       m.record(global(load, 16, w, data, index));
                       m.record(global(store, 16, w, data, index));
                       m.record(global(store, 16, w, out, index));
                     });
}

// soa_float3_kernel: 3 LDG.E (x, y, z arrays), 3 STG.E back, 3 STG.E to the out arrays; six
// separate allocations.
model::access_counts predict_soa(const launch_config& c, walk how, const model::grid_axis& axis) {
  const auto index = guarded_by(c.size, own_element);
  return walk_launch(how, axis, static_cast<unsigned>(c.block),
                     [&](const warp_threads& w, access_model& m) {
                       for (unsigned comp = 0; comp < float3_components; ++comp) {
                         m.record(global(load, 4, w, model_buffer_base(comp), index));
                         m.record(global(store, 4, w, model_buffer_base(comp), index));
                         m.record(global(store, 4, w, model_buffer_base(3 + comp), index));
                       }
                     });
}

// char_per_thread_kernel: LDG.E.U8 + STG.E.U8.
model::access_counts predict_char_per_thread(const launch_config& c, walk how,
                                             const model::grid_axis& axis) {
  const auto index = guarded_by(c.size, own_element);
  return predict_copy(c, how, axis, 1, index, index);
}

// uchar4_packed_kernel: LDG.E + STG.E of one word a thread, packed_words(n) threads.
model::access_counts predict_uchar4_packed(const launch_config& c, walk how,
                                           const model::grid_axis& axis) {
  const auto index = guarded_by(packed_words(c.size), own_element);
  return predict_copy(c, how, axis, 4, index, index);
}

// offset_copy_kernel: LDG.E + STG.E at index i + offset (checked by predict_with).
model::access_counts predict_offset(const launch_config& c, walk how,
                                    const model::grid_axis& axis) {
  const auto k = static_cast<unsigned>(c.param);
  const auto index = guarded_by(c.size, [k](std::uint64_t i) { return offset_index(i, k); });
  return predict_copy(c, how, axis, 4, index, index);
}

// stride_gather_kernel: LDG.E at i * stride, STG.E at i (the stride checked by predict_with).
model::access_counts predict_stride(const launch_config& c, walk how,
                                    const model::grid_axis& axis) {
  const auto s = static_cast<unsigned>(c.param);
  return predict_copy(c, how, axis, 4,
                      guarded_by(c.size, [s](std::uint64_t i) { return stride_index(i, s); }),
                      guarded_by(c.size, own_element));
}

}  // namespace

std::size_t coalescing_threads(coalescing_kind kind, std::size_t size) {
  return kind == coalescing_kind::uchar4_packed ? packed_words(size) : size;
}

namespace {

model::access_counts predict_with(coalescing_kind kind, const launch_config& c, walk how) {
  if (c.block < 1 || c.block > 1024) throw std::invalid_argument("block must be 1..1024");
  if (kind == coalescing_kind::offset && (c.param < 0 || c.param > max_offset))
    throw std::invalid_argument("offset must be 0.." + std::to_string(max_offset));
  if (kind == coalescing_kind::stride && (c.param < 1 || c.param > max_stride))
    throw std::invalid_argument("stride must be 1.." + std::to_string(max_stride));
  using predictor = model::access_counts (*)(const launch_config&, walk, const model::grid_axis&);
  // clang-format off
  static const std::pair<coalescing_kind, predictor> predictors[] = {
      {coalescing_kind::aos_float3, predict_aos_float3},
      {coalescing_kind::aos_float3_staged, predict_aos_float3_staged},
      {coalescing_kind::aos_float4, predict_aos_float4},
      {coalescing_kind::soa, predict_soa},
      {coalescing_kind::char_per_thread, predict_char_per_thread},
      {coalescing_kind::uchar4_packed, predict_uchar4_packed},
      {coalescing_kind::offset, predict_offset},
      {coalescing_kind::stride, predict_stride},
  };
  // clang-format on
  for (const auto& [listed, predict] : predictors)
    if (listed == kind) return predict(c, how, axis_of(kind, c));
  throw std::invalid_argument("unknown coalescing_kind");
}

}  // namespace

model::access_counts predict_coalescing(coalescing_kind kind, const launch_config& c) {
  return predict_with(kind, c, walk::block_classes);
}

model::access_counts predict_coalescing_every_block(coalescing_kind kind, const launch_config& c) {
  return predict_with(kind, c, walk::every_block);
}

double coalescing_model_cost(coalescing_kind kind, const launch_config& c) {
  return walk_cost(axis_of(kind, c), c.block, warp_instructions(kind));
}

}  // namespace cudalab::labs
