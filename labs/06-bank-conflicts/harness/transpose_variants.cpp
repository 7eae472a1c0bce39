// Lab 06 prepared variants: padded inputs and outputs, poisoning, results and checks.
//
// Both buffers hold transpose::padded_elements(rows, cols) elements: the matrix, then a band.
// The input's band holds NaN and the output is poisoned with 0xFF bytes before every launch, so
// a kernel that reads or writes past the matrix shows in the check (transpose_data.hpp).
#include "transpose_variants.hpp"

#include "transpose/transpose_index.cuh"

#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"

#include <functional>
#include <utility>

namespace cudalab::labs {
namespace {

namespace data = transpose_data;
namespace tr = transpose;
using kernel = transpose_model::kernel;

template <class T>
class matrix_prepared final : public prepared_variant {
 public:
  using launcher = std::function<tr::launch_dims(const T*, T*, cudaStream_t)>;

  matrix_prepared(launcher launch, data::result_shape shape, std::size_t rows, std::size_t cols)
      : m_launch(std::move(launch)),
        m_shape(shape),
        m_rows(rows),
        m_cols(cols),
        m_host_in(data::make_input<T>(rows, cols)),
        m_in(m_host_in.size()),
        m_out(tr::padded_elements(rows, cols)) {}
  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override { m_out.fill_bytes(0xFF, stream); }
  void launch(cudaStream_t stream) override {
    m_dims = m_launch(m_in.data(), m_out.data(), stream);
    m_launched = true;
  }
  void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
  verify_result verify() override { return data::verify<T>(m_shape, m_rows, m_cols, m_host_out); }
  launch_shape shape() const override {
    return m_launched ? launch_shape_2d(m_dims, m_rows * m_cols) : launch_shape{};
  }

 private:
  launcher m_launch;
  data::result_shape m_shape;
  std::size_t m_rows, m_cols;
  std::vector<T> m_host_in, m_host_out;
  device_buffer<T> m_in, m_out;
  tr::launch_dims m_dims;
  bool m_launched = false;
};

unsigned block_rows_of(const transpose_spec& spec) {
  // The exercise has no model; it is launched as shared_tile is, 32 x 32 threads, and its
  // grid is the same for every block height.
  return spec.model ? transpose_model::block_rows(*spec.model) : tr::one_element_rows;
}

unsigned tile_side_of(const transpose_spec& spec) {
  return spec.model ? transpose_model::tile_side(*spec.model) : tr::tile_dim;
}

void check_config(const transpose_spec& spec, std::size_t rows, std::size_t cols, unsigned stride) {
  tr::tile_dims(rows, cols, block_rows_of(spec), tile_side_of(spec));
  if (spec.stride_launch) tr::check_stride(stride);
}

}  // namespace

work_counts transpose_ideal(std::size_t rows, std::size_t cols, unsigned element_bytes) {
  return {2.0 * static_cast<double>(rows) * static_cast<double>(cols) * element_bytes, 0.0};
}

std::unique_ptr<prepared_variant> prepare_matrix(const transpose_spec& spec, std::size_t rows,
                                                 std::size_t cols, unsigned stride) {
  check_config(spec, rows, cols, stride);
  if (spec.double_launch) {
    const tr::double_launcher launch = spec.double_launch;
    return std::make_unique<matrix_prepared<double>>(
        [=](const double* in, double* out, cudaStream_t s) {
          return launch(in, out, rows, cols, s);
        },
        spec.result, rows, cols);
  }
  if (spec.stride_launch) {
    const stride_launcher launch = spec.stride_launch;
    return std::make_unique<matrix_prepared<float>>(
        [=](const float* in, float* out, cudaStream_t s) {
          return launch(in, out, rows, cols, stride, s);
        },
        spec.result, rows, cols);
  }
  if (!spec.float_launch) throw error("variant " + spec.name + " has no launcher");
  const tr::float_launcher launch = spec.float_launch;
  return std::make_unique<matrix_prepared<float>>(
      [=](const float* in, float* out, cudaStream_t s) { return launch(in, out, rows, cols, s); },
      spec.result, rows, cols);
}

variant make_transpose_variant(const transpose_spec& spec) {
  variant v = new_variant(spec);
  if (spec.stride_launch)
    v.sweep = sweep_spec{stride_sweep,
                         {1, 2, 4, 8, 16, 32},
                         static_cast<long>(tr::min_stride),
                         static_cast<long>(tr::max_stride)};
  const unsigned bytes = spec.element_bytes();
  const unsigned rows_of_threads = block_rows_of(spec);
  const unsigned side = tile_side_of(spec);
  const bool strided = spec.stride_launch != nullptr;
  // Every kernel's block is 32 x 32 or 32 x 8 threads (transpose_index.cuh), whatever --block
  // says.
  v.threads_per_block = [rows_of_threads](const launch_config&) {
    return static_cast<int>(tr::tile_dim * rows_of_threads);
  };
  v.device_bytes = [bytes](const launch_config& c) {
    return 2 * bytes * tr::padded_elements(c.size, c.size);
  };
  v.ideal = [bytes](const launch_config& c) { return transpose_ideal(c.size, c.size, bytes); };
  v.grid = [rows_of_threads, side](const launch_config& c) {
    const tr::launch_dims d = tr::tile_dims(c.size, c.size, rows_of_threads, side);
    return grid_size{d.grid.x, d.grid.y};
  };
  if (spec.model) {
    const kernel k = *spec.model;
    v.predict = [k, strided](const launch_config& c) {
      return transpose_model::predict(k, c.size, c.size,
                                      strided ? static_cast<unsigned>(c.param) : 0);
    };
    v.model_cost = [k](const launch_config& c) {
      return transpose_model::prediction_cost(k, c.size, c.size);
    };
  }
  v.prepare = [spec, strided](const launch_config& c,
                              cudaStream_t) -> std::unique_ptr<prepared_variant> {
    return prepare_matrix(spec, c.size, c.size, strided ? static_cast<unsigned>(c.param) : 1);
  };
  return v;
}

const std::vector<transpose_spec>& transpose_specs() {
  using data::result_shape;
  using k = kernel;
  constexpr auto naive = variant_role::naive, fixed = variant_role::fixed;
  // One spec a variant: its name, role, lesson, launcher and model kernel.
  const auto floats = [](const char* name, variant_role role, const char* lesson,
                         tr::float_launcher launch, kernel model,
                         result_shape result = result_shape::transpose) {
    transpose_spec t = transpose_spec::named(name, role, lesson);
    t.float_launch = launch;
    t.model = model;
    t.result = result;
    return t;
  };
  const auto doubles = [](const char* name, variant_role role, const char* lesson,
                          tr::double_launcher launch, kernel model) {
    transpose_spec t = transpose_spec::named(name, role, lesson);
    t.double_launch = launch;
    t.model = model;
    return t;
  };
  const auto strided = [](const char* name, variant_role role, const char* lesson,
                          stride_launcher launch, kernel model) {
    transpose_spec t = transpose_spec::named(name, role, lesson);
    t.stride_launch = launch;
    t.model = model;
    t.result = result_shape::copy;
    return t;
  };
  // One variant a line, so that the list reads as the table it is.
  // clang-format off
  static const std::vector<transpose_spec> specs = {
    floats("copy", variant_role::baseline, "out = in through 32 x 8 blocks: coalesced, the roof in sectors", tr::launch_copy, k::copy, result_shape::copy),
    floats("copy_restrict", variant_role::baseline, "the copy with __restrict__ pointers: loads need not wait for stores", tr::launch_copy_restrict, k::copy_restrict, result_shape::copy),
    floats("naive_row_read", naive, "reads rows, writes columns: 32 sectors a store request", tr::launch_naive_row_read, k::naive_row_read),
    floats("naive_col_read", naive, "reads columns, writes rows: 32 sectors a load request", tr::launch_naive_col_read, k::naive_col_read),
    floats("shared_tile", naive, "32 x 32 shared tile: coalesced both ways, a 32-way conflict a column read", tr::launch_shared_tile, k::shared_tile),
    floats("padded", fixed, "the tile padded to 33 columns: a column spans 32 banks, no conflict", tr::launch_padded, k::padded),
    floats("swizzled", fixed, "column c of tile row r stored at c XOR r: no conflict, no padding", tr::launch_swizzled, k::swizzled),
    floats("tile_rows", fixed, "the padded tile moved by 32 x 8 threads, four elements each", tr::launch_tile_rows, k::tile_rows),
    floats("tile64_rows", fixed, "a padded 64 x 64 tile, 32 x 8 threads: 16 loads in flight each", tr::launch_tile64_rows, k::tile64_rows),
    floats("tile64_vec4", fixed, "the 64 x 64 tile moved 16 bytes a lane both ways, blocks down the columns", tr::launch_tile64_vec4, k::tile64_vec4),
    floats("tile64_vec4_row_order", fixed, "tile64_vec4 with the blocks along the rows: same counts, other time", tr::launch_tile64_vec4_row_order, k::tile64_vec4_row_order),
    doubles("shared_tile_double", naive, "doubles, 32 x 32 tile: 16 lanes a half-warp phase in one bank pair", tr::launch_shared_tile_double, k::shared_tile_double),
    doubles("padded_double", fixed, "doubles, tile padded to 33: each half-warp phase covers the 32 banks", tr::launch_padded_double, k::padded_double),
    strided("shared_stride", naive, "the copy through shared memory, lanes s words apart: gcd(s, 32) ways", tr::launch_shared_stride, k::shared_stride),
  };
  // clang-format on
  return specs;
}

}  // namespace cudalab::labs
