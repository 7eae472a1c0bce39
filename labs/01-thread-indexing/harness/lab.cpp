// Lab 01-thread-indexing: how a thread finds its element.
//
// Variants (kernels in kernels/indexing/indexing_kernels.cu):
//   grid_overlaunch     naive  grid = n/t + n%t blocks: correct (guarded) but launches up to
//                              t-1 extra blocks of idle threads
//   grid_underlaunch    buggy  grid = n/t blocks: the last n%t elements are never written
//   grid_ceil_div       fixed  grid = (n+t-1)/t: exactly the blocks needed
//   no_bounds_guard     buggy  no `if (i < n)`: the tail block writes past the output; a canary
//                              band after the output makes the damage visible to `verify`
//   grid_stride         fixed  a bounded grid (at most 1024 blocks) and a grid-stride loop
//   int_index_overflow  buggy  `int i = blockIdx.x * blockDim.x + threadIdx.x` past element
//                              2^31, run on a window of `size` elements around 2^31: the index
//                              wraps negative; the kernel records the wrap instead of touching
//                              memory 8 GiB before the arrays, and `verify` reports it
//   int64_index         fixed  the same window with a 64-bit index
//   matrix_x_rows    naive  2D: threadIdx.x picks the row, a warp touches 32 rows
//   matrix_x_cols    fixed  2D: threadIdx.x picks the column, a warp reads 32 neighbours
// Every variant computes out = a*in + b, so the only difference is the indexing.
#include "indexing_lab.hpp"

#include "indexing/indexing_index.cuh"
#include "indexing/indexing_kernels.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"
#include "cudalab/model/access_model.hpp"
#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

namespace cudalab::labs {
namespace {

using namespace cudalab::indexing;
using model::access_kind;
using model::memory_space;
using model::warp_access;

// The 1D kinds whose launchers all take (in, out, n, block, a, b, stream), and those launchers.
using affine_launcher = launch_dims (*)(const float*, float*, std::size_t, unsigned, float, float,
                                        cudaStream_t);
const std::pair<indexing_kind, affine_launcher> affine_launchers[] = {
    {indexing_kind::overlaunch, &launch_affine_overlaunch},
    {indexing_kind::underlaunch, &launch_affine_underlaunch},
    {indexing_kind::int64_index, &launch_affine_int64_index},
    {indexing_kind::ceil_div, &launch_affine_guarded},
    {indexing_kind::unguarded, &launch_affine_unguarded},
    {indexing_kind::grid_stride, &launch_affine_grid_stride},
};

affine_launcher affine_launcher_of(indexing_kind k) {
  for (const auto& [kind, launcher] : affine_launchers)
    if (kind == k) return launcher;
  throw std::logic_error("no affine launcher for this kind");
}

constexpr float coefficient_a = 1.5f;
constexpr float coefficient_b = -0.25f;
// Extra canary words after the part of the output the widest over-write can reach.
constexpr std::size_t canary_slack = 256;
// Model base addresses: cudaMalloc returns 256-byte aligned, separate allocations.
constexpr std::uint64_t in_base = 0;
constexpr std::uint64_t out_base = std::uint64_t{1} << 40;

std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

std::size_t matrix_side(std::size_t size) {
  auto side = static_cast<std::size_t>(std::sqrt(static_cast<double>(size)));
  while (side * side < size) ++side;
  return side;
}

bool is_matrix(indexing_kind k) { return k == indexing_kind::x_rows || k == indexing_kind::x_cols; }

// The grid each variant launches, in 64 bits (the runner checks it against the device's limits
// before anything runs); the 2D variants use 32 x (t/32) blocks, so t is a multiple of 32.
grid_size grid_of(indexing_kind k, const launch_config& c) {
  const auto t = static_cast<unsigned>(c.block);
  switch (k) {
    case indexing_kind::overlaunch:
      return {grid_overlaunch(c.size, t)};
    case indexing_kind::underlaunch:
      return {grid_underlaunch(c.size, t)};
    case indexing_kind::ceil_div:
    case indexing_kind::unguarded:
    case indexing_kind::int_index:
    case indexing_kind::int64_index:
      return {grid_ceil_div(c.size, t)};
    case indexing_kind::grid_stride:
      return {grid_stride_blocks(c.size, t)};
    case indexing_kind::x_rows:
    case indexing_kind::x_cols: {
      const std::uint64_t side = matrix_side(c.size), rows_per_block = std::max(1u, t / 32);
      return {(side + 31) / 32, (side + rows_per_block - 1) / rows_per_block};
    }
  }
  return {};
}

// The shape each variant launches; the runner and the model agree because both call this.
launch_dims dims_of(indexing_kind k, const launch_config& c) {
  const auto t = static_cast<unsigned>(c.block);
  const grid_size g = grid_of(k, c);
  const dim3 block = is_matrix(k) ? dim3(32, t / 32) : dim3(t);
  return {dim3(grid_dimension(g.x), grid_dimension(g.y)), block};
}

bool is_window(indexing_kind k) {
  return k == indexing_kind::int_index || k == indexing_kind::int64_index;
}

// The window variants allocate their whole window: refuse, before any work, one too large.
void check_window_size(indexing_kind k, const launch_config& c) {
  if (is_window(k) && (c.size == 0 || c.size > index_window_max))
    throw usage_error("the 32-bit index variants simulate a window of 1.." +
                      std::to_string(index_window_max) + " elements around element 2^31 (got " +
                      std::to_string(c.size) + ")");
}

// Output words still holding the poison (0xFF bytes) after the launch: elements no thread wrote.
struct unwritten_elements {
  std::size_t count = 0;
  std::size_t first = 0;
};
unwritten_elements find_unwritten(const std::vector<float>& out, std::size_t n) {
  unwritten_elements u;
  const auto* words = reinterpret_cast<const std::uint32_t*>(out.data());
  for (std::size_t i = n; i-- > 0;) {
    if (words[i] != 0xFFFFFFFFu) continue;
    ++u.count;
    u.first = i;
  }
  return u;
}

// The 2D variants launch blocks of 32 x (t / 32) threads.
void check_matrix_block(indexing_kind k, const launch_config& c) {
  if (is_matrix(k) && (c.block % 32 != 0))
    throw usage_error("the 2D variants need --block in multiples of 32 (got " +
                      std::to_string(c.block) + ")");
}

// Elements of the data set (the matrix rounds the size up to a square).
std::size_t elements(indexing_kind k, const launch_config& c) {
  if (is_matrix(k)) {
    const std::size_t side = matrix_side(c.size);
    return side * side;
  }
  return c.size;
}

// The launch and the elements it must cover: what the table's launched/needed divides.
launch_shape launch_shape_of(indexing_kind k, const launch_config& c) {
  return launch_shape_2d(dims_of(k, c), elements(k, c));
}

// Elements allocated: the unguarded kernel reads and writes up to the end of its last block.
std::size_t allocated(indexing_kind k, const launch_config& c) {
  if (is_matrix(k)) return elements(k, c);
  return round_up(c.size, static_cast<std::size_t>(c.block));
}

class affine_variant final : public prepared_variant {
 public:
  affine_variant(indexing_kind k, const launch_config& c)
      : m_kind(k),
        m_config(c),
        m_n(elements(k, c)),
        m_alloc(allocated(k, c)),
        m_band(m_alloc - m_n + canary_slack),
        m_host_in(random_floats(m_alloc, 0x01u ^ m_alloc)),
        m_in(m_alloc),
        m_out(m_n + m_band),
        m_canary(m_band) {}

  void upload(cudaStream_t stream) override {
    m_in.copy_from_host(m_host_in, stream);
    m_canary.copy_from_host(std::vector<std::uint32_t>(m_band, canary_word), stream);
  }
  void reset(cudaStream_t stream) override {
    // Poison the output (0xFF bytes read as NaN) and re-arm the canary band after it.
    CUDALAB_CHECK_CUDA(cudaMemsetAsync(m_out.data(), 0xFF, m_n * sizeof(float), stream));
    CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_out.data() + m_n, m_canary.data(), m_band * sizeof(float),
                                       cudaMemcpyDeviceToDevice, stream));
    if (m_kind == indexing_kind::int_index) m_wraps.copy_from_host(m_no_wraps, stream);
  }
  void launch(cudaStream_t stream) override {
    const auto t = static_cast<unsigned>(m_config.block);
    const float* in = m_in.data();
    float* out = m_out.data();
    switch (m_kind) {
      case indexing_kind::int_index:
        m_dims = launch_affine_int_index(in, out, m_n, t, m_wraps.data(), coefficient_a,
                                         coefficient_b, stream);
        break;
      case indexing_kind::x_rows:
        m_dims = launch_matrix_x_rows(in, out, matrix_side(m_config.size), t, coefficient_a,
                                      coefficient_b, stream);
        break;
      case indexing_kind::x_cols:
        m_dims = launch_matrix_x_cols(in, out, matrix_side(m_config.size), t, coefficient_a,
                                      coefficient_b, stream);
        break;
      case indexing_kind::overlaunch:
      case indexing_kind::underlaunch:
      case indexing_kind::int64_index:
      case indexing_kind::ceil_div:
      case indexing_kind::unguarded:
      case indexing_kind::grid_stride:
        m_dims = affine_launcher_of(m_kind)(in, out, m_n, t, coefficient_a, coefficient_b, stream);
        break;
    }
  }
  void download(cudaStream_t stream) override {
    m_out.copy_to_host(m_host_out, stream);
    if (m_kind == indexing_kind::int_index) m_wraps.copy_to_host(m_host_wraps, stream);
  }
  verify_result verify() override {
    std::vector<double> expected(m_n);
    for (std::size_t i = 0; i < m_n; ++i)
      expected[i] = static_cast<double>(coefficient_a) * m_host_in[i] + coefficient_b;
    // The GPU may fuse a*x+b into one FMA (one rounding) where float math rounds twice:
    // a relative tolerance of 2^-22 covers both.
    verify_result r = compare_floats(m_host_out.data(), expected.data(), m_n, 0x1p-22);
    if (const unwritten_elements u = find_unwritten(m_host_out, m_n); u.count > 0) {
      r.ok = false;
      r.detail = std::to_string(u.count) + " elements never written, from element " +
                 std::to_string(u.first);
    }
    if (m_kind == indexing_kind::int_index) {
      const index_wrap_record& got = m_host_wraps.at(0);
      if (got.threads > 0) {
        const index_wraps model = predict_index_wraps(m_config);
        r.ok = false;
        r.detail = std::to_string(got.threads) + " threads computed a negative int index (lowest " +
                   std::to_string(got.lowest_index) + "; model " + std::to_string(model.threads) +
                   ", lowest " + std::to_string(model.lowest_index) +
                   ") and were stopped before touching memory; " + r.detail;
      }
    }
    const auto* band = reinterpret_cast<const std::uint32_t*>(m_host_out.data() + m_n);
    if (const std::size_t hit = count_overwritten(band, m_band); hit > 0) {
      r.ok = false;
      r.detail = "canary overwritten: " + std::to_string(hit) + " floats written past element " +
                 std::to_string(m_n - 1);
    }
    return r;
  }
  launch_shape shape() const override {
    return m_dims.grid.x ? launch_shape_2d(m_dims, m_n) : launch_shape_of(m_kind, m_config);
  }

 private:
  indexing_kind m_kind;
  launch_config m_config;
  std::size_t m_n, m_alloc, m_band;
  std::vector<float> m_host_in, m_host_out;
  device_buffer<float> m_in, m_out;
  device_buffer<std::uint32_t> m_canary;
  // Only the int-indexed kernel writes here; {0, INT_MAX} means no thread wrapped.
  const std::vector<index_wrap_record> m_no_wraps{index_wrap_record{0, INT_MAX}};
  device_buffer<index_wrap_record> m_wraps{1};
  std::vector<index_wrap_record> m_host_wraps;
  launch_dims m_dims{dim3(0), dim3(0)};
};

}  // namespace

// The element a lane of the kernel touches on grid-stride iteration `step` (0 for the other
// kernels), and whether the kernel's bounds guard lets it through: the same index functions
// the kernels call.
struct lane_element {
  std::size_t index = 0;
  bool active = false;
};

lane_element element_of(indexing_kind k, const thread_coord& tc, std::size_t n, std::size_t side,
                        std::size_t step, const index_window& window) {
  switch (k) {
    case indexing_kind::overlaunch:
    case indexing_kind::underlaunch:
    case indexing_kind::ceil_div: {
      const std::size_t i = global_index_1d(tc);
      return {i, i < n};
    }
    case indexing_kind::int_index: {
      // A wrapped (negative) index passes the guard, then stops before any access.
      const int i = global_index_int(tc, window.first_block);
      const std::int64_t local = i - window.first_element;
      if (!(i < window.n) || local < 0) return {0, false};
      return {static_cast<std::size_t>(local), true};
    }
    case indexing_kind::int64_index: {
      const std::int64_t i = global_index_64(tc, window.first_block);
      return {static_cast<std::size_t>(i - window.first_element), i < window.n};
    }
    case indexing_kind::unguarded:
      return {global_index_1d(tc), true};
    case indexing_kind::grid_stride: {
      const std::size_t i = global_index_1d(tc) + step * grid_stride(tc);
      return {i, i < n};
    }
    case indexing_kind::x_rows: {
      const std::size_t row = row_x_rows(tc), col = col_x_rows(tc);
      return {row * side + col, row < side && col < side};
    }
    case indexing_kind::x_cols: {
      const std::size_t row = row_x_cols(tc), col = col_x_cols(tc);
      return {row * side + col, row < side && col < side};
    }
  }
  return {};
}

namespace {

enum class walk { block_classes, every_block };

// The launch cut into whole, edge and idle blocks along x and y (cudalab/model/block_classes.hpp),
// with the bytes a block's addresses move, taken from the kernels' own index functions.
struct indexing_grid {
  model::grid_axis x, y;
};

indexing_grid block_grid_of(indexing_kind k, const launch_config& c) {
  check_matrix_block(k, c);
  check_window_size(k, c);
  const launch_dims d = dims_of(k, c);
  const std::size_t n = elements(k, c);
  const std::size_t side = is_matrix(k) ? matrix_side(c.size) : 0;
  const auto first_index = [&](unsigned bx, unsigned by) {
    const thread_coord tc{bx, by, 0, 0, d.block.x, d.block.y, d.grid.x};
    return element_of(k, tc, n, side, 0, index_window{}).index;
  };
  // The window variants' blocks move by a block of floats too (their index is linear until it
  // wraps); asking their index function would need the window's own origin.
  const std::uint64_t x_bytes = is_window(k)
                                    ? std::uint64_t{d.block.x} * sizeof(float)
                                    : (first_index(1, 0) - first_index(0, 0)) * sizeof(float);
  const std::uint64_t y_bytes =
      is_window(k) ? 0 : (first_index(0, 1) - first_index(0, 0)) * sizeof(float);
  // Blocks along an axis of `limit` elements that pass the guard whole, and those that pass
  // it in part; a grid that rounds up by more than a block leaves the rest idle.
  const auto axis = [](std::uint64_t blocks, std::uint64_t limit, unsigned dim,
                       std::uint64_t bytes) {
    model::grid_axis a;
    a.blocks = blocks;
    a.edge_end = std::min<std::uint64_t>(blocks, (limit + dim - 1) / dim);
    a.whole = std::min<std::uint64_t>(a.edge_end, limit / dim);
    a.period = model::repeat_period({bytes});
    return a;
  };
  indexing_grid g;
  switch (k) {
    case indexing_kind::overlaunch:
    case indexing_kind::underlaunch:
    case indexing_kind::ceil_div:
      g.x = axis(d.grid.x, n, d.block.x, x_bytes);
      break;
    case indexing_kind::unguarded:  // no guard: every block is whole
      g.x = axis(d.grid.x, std::uint64_t{d.grid.x} * d.block.x, d.block.x, x_bytes);
      break;
    case indexing_kind::int_index: {  // from element 2^31 on every index wraps: idle blocks
      const index_window w = overflow_window(c.size, d.block.x);
      const auto below = static_cast<std::uint64_t>(int_index_limit - w.first_element);
      g.x = axis(d.grid.x, std::min<std::uint64_t>(below, n), d.block.x, x_bytes);
      break;
    }
    case indexing_kind::int64_index:
      g.x = axis(d.grid.x, n, d.block.x, x_bytes);
      break;
    case indexing_kind::grid_stride:  // blocks loop a different number of times: walk each
      g.x.blocks = g.x.edge_end = d.grid.x;
      g.x.whole = 0;
      break;
    case indexing_kind::x_rows:
    case indexing_kind::x_cols:
      g.x = axis(d.grid.x, side, d.block.x, x_bytes);
      g.y = axis(d.grid.y, side, d.block.y, y_bytes);
      break;
  }
  return g;
}

// Steps of the grid-stride loop on which every lane of the warp passes its guard.
std::uint64_t whole_steps(const model::warp_threads_2d& w, const launch_dims& d, std::size_t n) {
  std::uint64_t last = 0, stride = 0;
  for (unsigned lane = 0; lane < w.lanes; ++lane) {
    const thread_coord tc{w.block_x, w.block_y, w.thread_x(lane), w.thread_y(lane),
                          d.block.x, d.block.y, d.grid.x};
    const std::uint64_t i =
        element_of(indexing_kind::grid_stride, tc, n, 0, 0, index_window{}).index;
    stride = element_of(indexing_kind::grid_stride, tc, n, 0, 1, index_window{}).index - i;
    last = std::max(last, i);
  }
  if (last >= n || stride == 0) return 0;
  return (n - 1 - last) / stride + 1;
}

// Everything block (bx, by) issues: one load (in[i]) and one store (out[i]) per warp
// instruction with an active lane, on every grid-stride step a lane of the warp is still in.
model::access_counts block_counts(indexing_kind k, const launch_config& c, walk how, unsigned bx,
                                  unsigned by) {
  const launch_dims d = dims_of(k, c);
  const std::size_t n = elements(k, c);
  const std::size_t side = is_matrix(k) ? matrix_side(c.size) : 0;
  const index_window window = is_window(k) ? overflow_window(c.size, d.block.x) : index_window{};
  model::access_model m;
  model::for_each_warp_of_block_2d(
      bx, by, d.block.x, d.block.y, [&](const model::warp_threads_2d& w) {
        // Records `times` copies of step `step`'s load and store; false when no lane is active.
        const auto issue = [&](std::size_t step, std::uint64_t times) {
          auto address = [&](const model::warp_threads_2d& ww, unsigned lane,
                             std::uint64_t base) -> std::optional<std::uint64_t> {
            const thread_coord tc{ww.block_x, ww.block_y, ww.thread_x(lane), ww.thread_y(lane),
                                  d.block.x,  d.block.y,  d.grid.x};
            const lane_element e = element_of(k, tc, n, side, step, window);
            if (!e.active) return std::nullopt;
            return base + e.index * sizeof(float);
          };
          const warp_access load =
              model::make_warp_access(memory_space::global, access_kind::load, 4, w,
                                      [&](const model::warp_threads_2d& ww, unsigned lane) {
                                        return address(ww, lane, in_base);
                                      });
          if (std::all_of(load.address.begin(), load.address.end(),
                          [](std::uint64_t a) { return a == model::inactive_lane; }))
            return false;
          m.record(load, times);
          m.record(model::make_warp_access(memory_space::global, access_kind::store, 4, w,
                                           [&](const model::warp_threads_2d& ww, unsigned lane) {
                                             return address(ww, lane, out_base);
                                           }),
                   times);
          return true;
        };
        std::size_t step = 0;
        if (k == indexing_kind::grid_stride && how == walk::block_classes) {
          // Whole steps move every address by the grid's stride; when that is a multiple of 128
          // bytes they all count as the first (block_classes.hpp says why).
          const std::uint64_t stride_bytes =
              grid_stride(thread_coord{0, 0, 0, 0, d.block.x, d.block.y, d.grid.x}) * sizeof(float);
          const std::uint64_t whole =
              stride_bytes % model::repeat_bytes == 0 ? whole_steps(w, d, n) : 0;
          if (whole > 0 && issue(0, whole)) step = whole;
        }
        // Only the grid-stride kernel loops; a warp leaves the loop when no lane is left in it.
        for (;; ++step)
          if (!issue(step, 1) || k != indexing_kind::grid_stride) break;
      });
  return m.counts();
}

model::access_counts predict_with(indexing_kind k, const launch_config& c, walk how) {
  const indexing_grid g = block_grid_of(k, c);
  const auto one_block = [&](std::uint64_t bx, std::uint64_t by) {
    return block_counts(k, c, how, static_cast<unsigned>(bx), static_cast<unsigned>(by));
  };
  return how == walk::every_block ? model::sum_every_block(g.x, g.y, one_block)
                                  : model::sum_block_classes(g.x, g.y, one_block);
}

}  // namespace

index_wraps predict_index_wraps(const launch_config& c) {
  check_window_size(indexing_kind::int_index, c);
  const launch_dims d = dims_of(indexing_kind::int_index, c);
  const index_window window = overflow_window(c.size, d.block.x);
  index_wraps w;
  for (unsigned b = 0; b < d.grid.x; ++b) {
    for (unsigned t = 0; t < d.block.x; ++t) {
      const thread_coord tc{b, 0, t, 0, d.block.x, 1, d.grid.x};
      const int i = global_index_int(tc, window.first_block);
      if (!(i < window.n) || i - window.first_element >= 0) continue;
      if (w.threads == 0 || i < w.lowest_index) w.lowest_index = i;
      ++w.threads;
    }
  }
  return w;
}

model::access_counts predict_indexing(indexing_kind k, const launch_config& c) {
  return predict_with(k, c, walk::block_classes);
}

model::access_counts predict_indexing_every_block(indexing_kind k, const launch_config& c) {
  return predict_with(k, c, walk::every_block);
}

double indexing_model_cost(indexing_kind k, const launch_config& c) {
  const launch_dims d = dims_of(k, c);
  const indexing_grid g = block_grid_of(k, c);
  const double warps =
      static_cast<double>((d.block.x * d.block.y + model::warp_size - 1) / model::warp_size);
  // A warp builds a load and a store a step, and a last load that finds no lane: at most two
  // steps a warp (the whole ones counted as one, the partial one) and the probe.
  const double per_warp = k == indexing_kind::grid_stride ? 5 : 2;
  return static_cast<double>(model::blocks_walked(g.x, g.y)) * warps * per_warp;
}

variant make_indexing_variant(indexing_kind k, std::string name, variant_role role,
                              std::string lesson) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  v.default_block = 256;
  if (is_matrix(k))
    v.blocks = {32, 1024, 32, false, "the 2D variants launch blocks of 32 x (t/32) threads"};
  v.grid = [k](const launch_config& c) { return grid_of(k, c); };
  v.host_launch = [k](const launch_config& c) { return launch_shape_of(k, c); };
  v.device_bytes = [k](const launch_config& c) {
    const std::size_t alloc = allocated(k, c);
    return 2 * alloc * sizeof(float) + 2 * (alloc - elements(k, c) + canary_slack) * sizeof(float);
  };
  v.ideal = [k](const launch_config& c) {
    const double n = static_cast<double>(elements(k, c));
    return work_counts{8.0 * n, 2.0 * n};  // read 4 bytes, write 4 bytes; one FMA
  };
  v.predict = [k](const launch_config& c) { return predict_indexing(k, c); };
  v.model_cost = [k](const launch_config& c) { return indexing_model_cost(k, c); };
  v.prepare = [k](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    check_window_size(k, c);
    check_matrix_block(k, c);
    return std::make_unique<affine_variant>(k, c);
  };
  return v;
}

lab make_lab_01_thread_indexing() {
  // The default size is a multiple of no block size: the tail block is partial, so the
  // missing guard shows.
  lab l = new_lab("01-thread-indexing",
                  "Thread indexing: grid sizes, bounds guards, 2D mappings, grid-stride loops",
                  "elements", {10'000'000});
  l.headline_metrics = {"threads_launched_per_needed", "ld_sectors_per_request",
                        "st_sectors_per_request"};
  l.variants = {
      make_indexing_variant(indexing_kind::overlaunch, "grid_overlaunch", variant_role::naive,
                            "grid = n/t + n%t launches up to t-1 idle blocks"),
      make_indexing_variant(
          indexing_kind::underlaunch, "grid_underlaunch", variant_role::buggy,
          "grid = n/t drops the last n%t elements: no thread is launched for them"),
      make_indexing_variant(indexing_kind::ceil_div, "grid_ceil_div", variant_role::fixed,
                            "grid = (n+t-1)/t launches exactly the blocks needed"),
      make_indexing_variant(indexing_kind::unguarded, "no_bounds_guard", variant_role::buggy,
                            "no `if (i < n)`: the partial tail block writes past the output"),
      make_indexing_variant(indexing_kind::grid_stride, "grid_stride", variant_role::fixed,
                            "at most 1024 blocks; each thread loops with stride gridDim*blockDim"),
      make_indexing_variant(indexing_kind::int_index, "int_index_overflow", variant_role::buggy,
                            "int i = blockIdx.x*blockDim.x + threadIdx.x wraps negative past 2^31 "
                            "(a window of size elements around 2^31)"),
      make_indexing_variant(indexing_kind::int64_index, "int64_index", variant_role::fixed,
                            "a 64-bit index reaches past 2^31 (the same window)"),
      make_indexing_variant(indexing_kind::x_rows, "matrix_x_rows", variant_role::naive,
                            "2D: threadIdx.x picks the row, so a warp touches 32 rows"),
      make_indexing_variant(indexing_kind::x_cols, "matrix_x_cols", variant_role::fixed,
                            "2D: threadIdx.x picks the column, so a warp reads 32 neighbours"),
  };
  for (auto& v : l.variants)
    if (v.name.rfind("matrix_", 0) == 0) v.lesson += " (side = ceil(sqrt(size)))";
  return l;
}

}  // namespace cudalab::labs
