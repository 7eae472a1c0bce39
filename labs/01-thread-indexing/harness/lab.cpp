// Lab 01-thread-indexing: how a thread finds its element.
//
// Variants (kernels in kernels/indexing/indexing_kernels.cu):
//   grid_overlaunch  naive  grid = n/t + n%t blocks: correct (guarded) but launches up to t-1
//                           extra blocks of idle threads
//   grid_ceil_div    fixed  grid = (n+t-1)/t: exactly the blocks needed
//   no_bounds_guard  buggy  no `if (i < n)`: the tail block writes past the output; a canary
//                           band after the output makes the damage visible to `verify`
//   grid_stride      fixed  a bounded grid (at most 1024 blocks) and a grid-stride loop
//   matrix_x_rows    naive  2D: threadIdx.x picks the row, a warp touches 32 rows
//   matrix_x_cols    fixed  2D: threadIdx.x picks the column, a warp reads 32 neighbours
// Every variant computes out = a*in + b, so the only difference is the indexing.
#include "indexing_lab.hpp"

#include "indexing/indexing_index.cuh"
#include "indexing/indexing_kernels.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"
#include "cudalab/model/access_model.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace cudalab::labs {
namespace {

using namespace cudalab::indexing;
using model::access_kind;
using model::memory_space;
using model::warp_access;

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

// The shape each variant launches; the runner and the model agree because both call this.
launch_dims dims_of(indexing_kind k, const launch_config& c) {
  const auto t = static_cast<unsigned>(c.block);
  switch (k) {
    case indexing_kind::overlaunch: return {dim3(static_cast<unsigned>(grid_overlaunch(c.size, t))), dim3(t)};
    case indexing_kind::ceil_div:
    case indexing_kind::unguarded: return {dim3(static_cast<unsigned>(grid_ceil_div(c.size, t))), dim3(t)};
    case indexing_kind::grid_stride: return {dim3(static_cast<unsigned>(grid_stride_blocks(c.size, t))), dim3(t)};
    case indexing_kind::x_rows:
    case indexing_kind::x_cols: {
      const std::size_t side = matrix_side(c.size);
      const dim3 block(32, t / 32);
      return {dim3(static_cast<unsigned>((side + 31) / 32),
                   static_cast<unsigned>((side + block.y - 1) / block.y)),
              block};
    }
  }
  return {};
}

bool is_matrix(indexing_kind k) { return k == indexing_kind::x_rows || k == indexing_kind::x_cols; }

// Elements of the data set (the matrix rounds the size up to a square).
std::size_t elements(indexing_kind k, const launch_config& c) {
  if (is_matrix(k)) {
    const std::size_t side = matrix_side(c.size);
    return side * side;
  }
  return c.size;
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
  }
  void launch(cudaStream_t stream) override {
    const auto t = static_cast<unsigned>(m_config.block);
    const float* in = m_in.data();
    float* out = m_out.data();
    switch (m_kind) {
      case indexing_kind::overlaunch: m_dims = launch_affine_overlaunch(in, out, m_n, t, coefficient_a, coefficient_b, stream); break;
      case indexing_kind::ceil_div: m_dims = launch_affine_guarded(in, out, m_n, t, coefficient_a, coefficient_b, stream); break;
      case indexing_kind::unguarded: m_dims = launch_affine_unguarded(in, out, m_n, t, coefficient_a, coefficient_b, stream); break;
      case indexing_kind::grid_stride: m_dims = launch_affine_grid_stride(in, out, m_n, t, coefficient_a, coefficient_b, stream); break;
      case indexing_kind::x_rows: m_dims = launch_matrix_x_rows(in, out, matrix_side(m_config.size), t, coefficient_a, coefficient_b, stream); break;
      case indexing_kind::x_cols: m_dims = launch_matrix_x_cols(in, out, matrix_side(m_config.size), t, coefficient_a, coefficient_b, stream); break;
    }
  }
  void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
  verify_result verify() override {
    std::vector<double> expected(m_n);
    for (std::size_t i = 0; i < m_n; ++i)
      expected[i] = static_cast<double>(coefficient_a) * m_host_in[i] + coefficient_b;
    // The GPU may fuse a*x+b into one FMA (one rounding) where float math rounds twice:
    // a relative tolerance of 2^-22 covers both.
    verify_result r = compare_floats(m_host_out.data(), expected.data(), m_n, 0x1p-22);
    const auto* band = reinterpret_cast<const std::uint32_t*>(m_host_out.data() + m_n);
    if (const std::size_t hit = count_overwritten(band, m_band); hit > 0) {
      r.ok = false;
      r.detail = "canary overwritten: " + std::to_string(hit) + " floats written past element " +
                 std::to_string(m_n - 1);
    }
    return r;
  }
  launch_shape shape() const override {
    const launch_dims d = m_dims.grid.x ? m_dims : dims_of(m_kind, m_config);
    return {d.grid.x, d.grid.y, d.block.x, d.block.y, m_n};
  }

 private:
  indexing_kind m_kind;
  launch_config m_config;
  std::size_t m_n, m_alloc, m_band;
  std::vector<float> m_host_in, m_host_out;
  device_buffer<float> m_in, m_out;
  device_buffer<std::uint32_t> m_canary;
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
                        std::size_t step) {
  switch (k) {
    case indexing_kind::overlaunch:
    case indexing_kind::ceil_div: {
      const std::size_t i = global_index_1d(tc);
      return {i, i < n};
    }
    case indexing_kind::unguarded: return {global_index_1d(tc), true};
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

// The access model's prediction: walk the launch warp by warp (model/warp_patterns.hpp) and
// record one load (in[i]) and one store (out[i]) per warp instruction with an active lane.
model::access_counts predict_indexing(indexing_kind k, const launch_config& c) {
  const launch_dims d = dims_of(k, c);
  const std::size_t n = elements(k, c);
  const std::size_t side = is_matrix(k) ? matrix_side(c.size) : 0;
  model::access_model m;
  model::for_each_warp_2d(d.grid.x, d.grid.y, d.block.x, d.block.y,
                          [&](const model::warp_threads_2d& w) {
    // Only the grid-stride kernel loops; a warp leaves the loop when no lane is left in it.
    for (std::size_t step = 0;; ++step) {
      auto address = [&](const model::warp_threads_2d& ww, unsigned lane,
                         std::uint64_t base) -> std::optional<std::uint64_t> {
        const thread_coord tc{ww.block_x, ww.block_y, ww.thread_x(lane), ww.thread_y(lane),
                              d.block.x, d.block.y, d.grid.x};
        const lane_element e = element_of(k, tc, n, side, step);
        if (!e.active) return std::nullopt;
        return base + e.index * sizeof(float);
      };
      const warp_access load = model::make_warp_access(
          memory_space::global, access_kind::load, 4, w,
          [&](const model::warp_threads_2d& ww, unsigned lane) { return address(ww, lane, in_base); });
      if (std::all_of(load.address.begin(), load.address.end(),
                      [](std::uint64_t a) { return a == model::inactive_lane; }))
        break;
      m.record(load);
      m.record(model::make_warp_access(
          memory_space::global, access_kind::store, 4, w,
          [&](const model::warp_threads_2d& ww, unsigned lane) { return address(ww, lane, out_base); }));
      if (k != indexing_kind::grid_stride) break;
    }
  });
  return m.counts();
}

variant make_indexing_variant(indexing_kind k, std::string name, variant_role role, std::string lesson) {
  variant v;
  v.name = std::move(name);
  v.role = role;
  v.lesson = std::move(lesson);
  v.default_block = 256;
  v.device_bytes = [k](const launch_config& c) {
    const std::size_t alloc = allocated(k, c);
    return 2 * alloc * sizeof(float) + 2 * (alloc - elements(k, c) + canary_slack) * sizeof(float);
  };
  v.ideal = [k](const launch_config& c) {
    const double n = static_cast<double>(elements(k, c));
    return work_counts{8.0 * n, 2.0 * n};  // read 4 bytes, write 4 bytes; one FMA
  };
  v.predict = [k](const launch_config& c) { return predict_indexing(k, c); };
  v.prepare = [k](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    if (is_matrix(k) && (c.block % 32 != 0))
      throw usage_error("the 2D variants need --block in multiples of 32 (got " + std::to_string(c.block) + ")");
    return std::make_unique<affine_variant>(k, c);
  };
  return v;
}

lab make_lab_01_thread_indexing() {
  lab l;
  l.id = "01-thread-indexing";
  l.title = "Thread indexing: grid sizes, bounds guards, 2D mappings, grid-stride loops";
  l.readme = "labs/01-thread-indexing/README.md";
  // Not a multiple of any block size: the tail block is partial, so the missing guard shows.
  l.default_size = 10'000'000;
  l.variants = {
      make_indexing_variant(indexing_kind::overlaunch, "grid_overlaunch", variant_role::naive,
                            "grid = n/t + n%t launches up to t-1 idle blocks"),
      make_indexing_variant(indexing_kind::ceil_div, "grid_ceil_div", variant_role::fixed,
                            "grid = (n+t-1)/t launches exactly the blocks needed"),
      make_indexing_variant(indexing_kind::unguarded, "no_bounds_guard", variant_role::buggy,
                            "no `if (i < n)`: the partial tail block writes past the output"),
      make_indexing_variant(indexing_kind::grid_stride, "grid_stride", variant_role::fixed,
                            "at most 1024 blocks; each thread loops with stride gridDim*blockDim"),
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
