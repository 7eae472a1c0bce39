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
#include "lab01.hpp"

#include "indexing/indexing_index.cuh"
#include "indexing/indexing_kernels.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"
#include "cudalab/model/access_model.hpp"

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

// The access model's prediction: walk the launch warp by warp, with the kernels' own index
// functions, and record one load (in[i]) and one store (out[i]) per warp with an active lane.
model::access_counts predict_indexing(indexing_kind k, const launch_config& c) {
  const launch_dims d = dims_of(k, c);
  const std::size_t n = elements(k, c);
  const std::size_t side = is_matrix(k) ? matrix_side(c.size) : 0;
  model::access_model m;
  warp_access load = warp_access::make(memory_space::global, access_kind::load, 4);
  warp_access store = warp_access::make(memory_space::global, access_kind::store, 4);
  const unsigned threads = d.block.x * d.block.y;
  for (unsigned by = 0; by < d.grid.y; ++by)
    for (unsigned bx = 0; bx < d.grid.x; ++bx)
      for (unsigned first = 0; first < threads; first += 32) {
        // The element each lane touches on iteration `step` (only grid_stride loops).
        for (std::size_t step = 0;; ++step) {
          bool any = false;
          for (unsigned lane = 0; lane < 32; ++lane) {
            const unsigned tid = first + lane;
            std::uint64_t address = model::inactive_lane;
            if (tid < threads) {
              const thread_coord tc{bx, by, tid % d.block.x, tid / d.block.x, d.block.x, d.block.y, d.grid.x};
              std::size_t element = 0;
              bool active = false;
              switch (k) {
                case indexing_kind::overlaunch:
                case indexing_kind::ceil_div: element = global_index_1d(tc); active = element < n; break;
                case indexing_kind::unguarded: element = global_index_1d(tc); active = true; break;
                case indexing_kind::grid_stride: element = global_index_1d(tc) + step * grid_stride(tc); active = element < n; break;
                case indexing_kind::x_rows: {
                  const std::size_t row = row_x_rows(tc), col = col_x_rows(tc);
                  element = row * side + col;
                  active = row < side && col < side;
                  break;
                }
                case indexing_kind::x_cols: {
                  const std::size_t row = row_x_cols(tc), col = col_x_cols(tc);
                  element = row * side + col;
                  active = row < side && col < side;
                  break;
                }
              }
              if (active) address = element * sizeof(float);
            }
            load.address[lane] = address == model::inactive_lane ? address : in_base + address;
            store.address[lane] = address == model::inactive_lane ? address : out_base + address;
            any = any || address != model::inactive_lane;
          }
          if (!any) break;
          m.record(load);
          m.record(store);
          if (k != indexing_kind::grid_stride) break;
        }
      }
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
