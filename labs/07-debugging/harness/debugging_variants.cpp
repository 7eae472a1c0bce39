// Lab 07 prepared variants: exact-size buffers, poisoning, results and checks.
#include "debugging_variants.hpp"

#include "debugging/debugging_index.cuh"

#include "cudalab/cell_format.hpp"
#include "cudalab/check.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace cudalab::labs {
namespace {

namespace dbg = debugging;

std::size_t ceil_div(std::size_t n, std::size_t d) { return (n + d - 1) / d; }

// The expected output of a 1D variant, with the kernels' own functions.
std::vector<float> expected_of(expected_output kind, const std::vector<float>& in) {
  const std::size_t n = in.size();
  std::vector<float> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (kind) {
      case expected_output::ramp:
        out[i] = dbg::ramp_value(i);
        break;
      case expected_output::blur:
        out[i] =
            dbg::blur3(in[dbg::clamped(dbg::left_of(i), n)], in[i], in[dbg::clamped(i + 1, n)]);
        break;
      case expected_output::pair_swap: {
        const std::size_t partner = i ^ 1u;
        out[i] = partner < n ? dbg::pair_scaled(in[partner], partner) : 0.0f;
        break;
      }
      case expected_output::table_scale:
        out[i] = in[i] * dbg::table_entry(static_cast<unsigned>(i % dbg::table_entries));
        break;
      case expected_output::chunk_reverse: {
        const std::size_t first = i / dbg::reverse_chunk * dbg::reverse_chunk;
        const std::size_t length = std::min<std::size_t>(n - first, dbg::reverse_chunk);
        out[i] = in[first + length - 1 - (i - first)];
        break;
      }
    }
  }
  return out;
}

// Elements of `out` still holding the 0xFF poison: never written since the reset.
std::size_t count_poison(const std::vector<float>& out, std::size_t* first) {
  std::size_t count = 0;
  for (std::size_t i = out.size(); i-- > 0;) {
    std::uint32_t word;
    std::memcpy(&word, &out[i], sizeof word);
    if (word != 0xFFFFFFFFu) continue;
    ++count;
    *first = i;
  }
  return count;
}

// The float outputs against their expected values: stale, partly unwritten or wrong.
verify_result check_floats(const std::vector<float>& got, const std::vector<float>& want,
                           double rel_tol) {
  std::size_t first = 0;
  const std::size_t unwritten = count_poison(got, &first);
  if (unwritten == got.size() && !got.empty())
    return {false, "output unchanged since the reset: all " + std::to_string(got.size()) +
                       " elements still hold the poison (the kernel never ran)"};
  if (unwritten > 0)
    return {false, std::to_string(unwritten) + " elements never written, from element " +
                       std::to_string(first)};
  std::vector<double> expected(want.begin(), want.end());
  return compare_floats(got.data(), expected.data(), got.size(), rel_tol);
}

// A 1D launch with everything it needs: input, output, config, stream.
using array_launch =
    std::function<dbg::launch_dims(const float*, float*, const launch_config&, cudaStream_t)>;

// n floats in, n floats out, both allocated at exactly n; in the grader's own runs, out keeps
// a canary band after its n floats (output_canary_scope).
class array_prepared final : public prepared_variant {
 public:
  array_prepared(const launch_config& c, array_launch launch, expected_output expected,
                 bool launch_fails)
      : m_config(c),
        m_launch(std::move(launch)),
        m_expected(expected),
        m_launch_fails(launch_fails),
        m_band(output_canary_words()),
        m_canary(m_band, canary_word),
        m_host_in(random_floats(c.size, 0x07u ^ c.size)),
        m_in(c.size),
        m_out(c.size + m_band) {}
  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override {
    m_out.fill_bytes(0xFF, stream);
    if (m_band == 0) return;
    std::fill(m_canary.begin(), m_canary.end(), canary_word);
    CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_out.data() + m_config.size, m_canary.data(),
                                       m_band * sizeof(float), cudaMemcpyHostToDevice, stream));
    // The band's host words are the copy's source until it has run.
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  void launch(cudaStream_t stream) override {
    if (!m_launch_fails) {
      m_dims = m_launch(m_in.data(), m_out.data(), m_config, stream);
      m_launched = true;
      return;
    }
    try {
      m_dims = m_launch(m_in.data(), m_out.data(), m_config, stream);
      m_launched = true;
    } catch (const cuda_error& e) {
      m_launch_error = e.what();
    }
  }
  void download(cudaStream_t stream) override {
    m_out.copy_to_host(m_host_out, stream);
    std::memcpy(m_canary.data(), m_host_out.data() + m_config.size, m_band * sizeof(float));
    m_host_out.resize(m_config.size);
    // A launch whose error nobody read leaves it pending; read it here, so that the next
    // variant's check does not blame its own launch, and so verify can say what it was.
    const cudaError_t pending = cudaGetLastError();
    if (pending != cudaSuccess) m_unread_error = cudaGetErrorName(pending);
  }
  verify_result verify() override {
    if (!m_launch_error.empty())
      return {false, "the launch failed and CUDALAB_CHECK_LAUNCH said so: " + m_launch_error};
    verify_result r = check_floats(m_host_out, expected_of(m_expected, m_host_in), 1e-6);
    if (!m_unread_error.empty())
      r.detail += "; the launch's error " + m_unread_error + " was never read";
    return r;
  }
  launch_shape shape() const override {
    return kernel_ran() ? launch_shape_2d(m_dims, m_config.size) : launch_shape{};
  }
  // A launch the runtime refused (checked or not) ran no kernel.
  bool kernel_ran() const override { return m_launched && m_unread_error.empty(); }
  std::optional<std::size_t> words_overwritten_past_outputs() const override {
    if (m_band == 0) return std::nullopt;
    return count_overwritten(m_canary.data(), m_band);
  }

 private:
  launch_config m_config;
  array_launch m_launch;
  expected_output m_expected;
  bool m_launch_fails;
  std::size_t m_band;                   // canary words after out (0: exact-size, as memcheck needs)
  std::vector<std::uint32_t> m_canary;  // the band as set, then as downloaded
  std::vector<float> m_host_in, m_host_out;
  device_buffer<float> m_in, m_out;
  dbg::launch_dims m_dims{};
  bool m_launched = false;
  std::string m_launch_error, m_unread_error;
};

work_counts copy_work(std::size_t n) { return {2.0 * sizeof(float) * static_cast<double>(n), 0}; }

// Why a planted write past the end cannot run this config: its tail block's writes past the
// array must land in the slack of the array's last 2 MiB page, where they corrupt nothing and
// only memcheck sees them. Empty when they do.
std::string overshoot_violation(const launch_config& c) {
  const auto block = static_cast<std::size_t>(c.block);
  const std::size_t overshoot = (ceil_div(c.size, block) * block - c.size) * sizeof(float);
  if (overshoot == 0 || dbg::overshoot_fits_page_slack(c.size * sizeof(float), overshoot))
    return {};
  return "it writes past its array, so its size must fill at least one 2 MiB page and leave "
         "room in the last for the tail block's " +
         std::to_string(overshoot) + " bytes (the default size does; so does 1000003)";
}

variant base_variant(std::string name, variant_role role, std::string lesson) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  v.default_block = 256;
  return v;
}

// What the host knows of a launch before it runs, from the grid the variant declares: the
// launched/needed column of a run without a GPU. `needed`: the elements that need a thread;
// `rows_of_32`: the block is 32 x (t/32) threads (the 2D variants), else t x 1.
void set_host_launch(variant& v, std::function<std::size_t(const launch_config&)> needed,
                     bool rows_of_32 = false) {
  v.host_launch = [grid = v.grid, needed = std::move(needed), rows_of_32](const launch_config& c) {
    const grid_size g = grid(c);
    const auto t = static_cast<unsigned>(c.block);
    return launch_shape{g.x, g.y, rows_of_32 ? 32u : t, rows_of_32 ? t / 32 : 1u, needed(c)};
  };
}

std::size_t size_of(const launch_config& c) { return c.size; }

variant array_variant(array_spec spec, array_launch launch) {
  variant v = base_variant(spec.name, spec.role, spec.lesson);
  if (spec.block_multiple > 1)
    v.blocks = {32, 1024, static_cast<int>(spec.block_multiple), false,
                "the kernel pairs neighbouring lanes of whole warps"};
  v.device_bytes = [](const launch_config& c) { return 2 * sizeof(float) * c.size; };
  v.ideal = [](const launch_config& c) { return copy_work(c.size); };
  const expected_output expected = spec.expected;
  const bool fails = spec.launch_fails;
  const bool past_end = spec.writes_past_end;
  const std::string name = spec.name;
  v.has_kernels = !fails && spec.expected != expected_output::chunk_reverse;
  if (past_end) v.config_violation = overshoot_violation;
  v.prepare = [=](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    if (past_end)
      if (const std::string why = overshoot_violation(c); !why.empty())
        throw usage_error(name + ": " + why);
    return std::make_unique<array_prepared>(c, launch, expected, fails);
  };
  return v;
}

}  // namespace

variant make_array_variant(array_spec spec) {
  const array_launcher launch = spec.launch;
  variant v = array_variant(
      spec, [launch](const float* in, float* out, const launch_config& c, cudaStream_t stream) {
        return launch(in, out, c.size, static_cast<unsigned>(c.block), stream);
      });
  if (spec.expected != expected_output::chunk_reverse) {
    v.grid = [](const launch_config& c) { return grid_size{ceil_div(c.size, c.block)}; };
    if (spec.role != variant_role::exercise) set_host_launch(v, size_of);
  }
  // A ramp is written, never read: its bytes are the stores alone.
  if (spec.expected == expected_output::ramp)
    v.ideal = [](const launch_config& c) {
      return work_counts{sizeof(float) * static_cast<double>(c.size), 0};
    };
  return v;
}

variant make_exercise_variant(const std::string& lesson, array_launcher launch) {
  return make_array_variant({"exercise", variant_role::exercise, lesson, launch,
                             expected_output::blur, /*writes_past_end=*/true});
}

// ---- index_overflow ----------------------------------------------------------------------

namespace {

// A stream-ordered pool that keeps what is freed mapped (release threshold: everything), so
// memory given back to it stays the process's own.
class retaining_pool {
 public:
  explicit retaining_pool(int device) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    CUDALAB_CHECK_CUDA(cudaMemPoolCreate(&m_pool, &props));
    std::uint64_t keep_all = ~std::uint64_t{0};
    CUDALAB_CHECK_CUDA(cudaMemPoolSetAttribute(m_pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
  }
  ~retaining_pool() { CUDALAB_CHECK_CUDA_NOEXCEPT(cudaMemPoolDestroy(m_pool)); }
  retaining_pool(const retaining_pool&) = delete;  // one owner destroys the pool
  retaining_pool& operator=(const retaining_pool&) = delete;
  cudaMemPool_t get() const { return m_pool; }

 private:
  cudaMemPool_t m_pool = nullptr;
};

// The buggy kernel's wrapped writes land 2 GiB before its array. For them to land in memory the
// process owns, but in no allocation (so that memcheck reports each one and a run without it
// corrupts nothing), the array is allocated from a retaining pool right after a 2 GiB spacer,
// which is then freed: its pages stay mapped in the pool. The layout is checked before any
// launch; where the pool placed them otherwise, the buggy kernel is not launched at all.
class overflow_buffers {
 public:
  overflow_buffers(std::size_t n, bool with_spacer, cudaStream_t stream) : m_n(n) {
    int device = 0;
    CUDALAB_CHECK_CUDA(cudaGetDevice(&device));
    m_pool = std::make_unique<retaining_pool>(device);
    void* spacer = nullptr;
    const std::size_t spacer_bytes = (std::size_t{1} << 31) + (std::size_t{2} << 20);
    if (with_spacer)
      CUDALAB_CHECK_CUDA(cudaMallocFromPoolAsync(&spacer, spacer_bytes, m_pool->get(), stream));
    CUDALAB_CHECK_CUDA(
        cudaMallocFromPoolAsync(reinterpret_cast<void**>(&m_out), n, m_pool->get(), stream));
    if (with_spacer) {
      CUDALAB_CHECK_CUDA(cudaFreeAsync(spacer, stream));
      const auto base = reinterpret_cast<std::uintptr_t>(spacer);
      const auto out = reinterpret_cast<std::uintptr_t>(m_out);
      const std::uintptr_t wrapped_first = out - (std::uintptr_t{1} << 31);
      const std::uintptr_t wrapped_end = wrapped_first + (n - (std::size_t{1} << 31));
      m_wraps_land_in_spacer = base <= wrapped_first && wrapped_end <= base + spacer_bytes;
    }
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  ~overflow_buffers() {
    if (m_out) CUDALAB_CHECK_CUDA_NOEXCEPT(cudaFree(m_out));
  }
  overflow_buffers(const overflow_buffers&) = delete;  // one owner frees the array
  overflow_buffers& operator=(const overflow_buffers&) = delete;
  unsigned char* out() { return m_out; }
  std::size_t size() const { return m_n; }
  bool wraps_land_in_spacer() const { return m_wraps_land_in_spacer; }

 private:
  std::size_t m_n;
  std::unique_ptr<retaining_pool> m_pool;
  unsigned char* m_out = nullptr;
  bool m_wraps_land_in_spacer = false;
};

class overflow_prepared final : public prepared_variant {
 public:
  overflow_prepared(const launch_config& c, bool fixed, cudaStream_t stream)
      : m_config(c), m_fixed(fixed), m_buffers(overflow_elements, !fixed, stream) {}
  void upload(cudaStream_t) override {}
  void reset(cudaStream_t stream) override {
    CUDALAB_CHECK_CUDA(cudaMemsetAsync(m_buffers.out(), 0, m_buffers.size(), stream));
  }
  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_config.block);
    if (m_fixed) {
      m_dims = dbg::launch_byte_fill_64_index(m_buffers.out(), m_buffers.size(), block, stream);
    } else {
      if (!m_buffers.wraps_land_in_spacer()) return;  // would write into unknown memory
      m_dims = dbg::launch_byte_fill_int_index(m_buffers.out(), m_buffers.size(), block, stream);
    }
    m_launched = true;
  }
  void download(cudaStream_t stream) override {
    m_host.resize(m_buffers.size());
    CUDALAB_CHECK_CUDA(cudaMemcpyAsync(m_host.data(), m_buffers.out(), m_host.size(),
                                       cudaMemcpyDeviceToHost, stream));
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
  }
  verify_result verify() override {
    if (!m_launched)
      return {false,
              "not launched: the pool did not place the array after its spacer, so the "
              "wrapped writes could land in memory that is not the run's"};
    std::size_t wrong = 0, first = 0;
    for (std::size_t i = m_host.size(); i-- > 0;) {
      if (m_host[i] == dbg::byte_value(static_cast<std::int64_t>(i))) continue;
      ++wrong;
      first = i;
    }
    if (wrong == 0) return {true, "all " + std::to_string(m_host.size()) + " bytes right"};
    return {false, std::to_string(wrong) + " bytes never written, from element " +
                       std::to_string(first) + " (2^31 = " + std::to_string(std::size_t{1} << 31) +
                       ")"};
  }
  launch_shape shape() const override {
    return m_launched ? launch_shape_2d(m_dims, m_buffers.size()) : launch_shape{};
  }
  // The buggy kernel is not launched where the pool misplaced its array: no time to read.
  bool kernel_ran() const override { return m_launched; }

 private:
  launch_config m_config;
  bool m_fixed;
  overflow_buffers m_buffers;
  std::vector<unsigned char> m_host;
  dbg::launch_dims m_dims{};
  bool m_launched = false;
};

}  // namespace

variant make_index_overflow_variant(bool fixed) {
  variant v = base_variant(
      fixed ? "index_overflow_fixed" : "index_overflow",
      fixed ? variant_role::fixed : variant_role::buggy,
      fixed ? "2^31 + 4096 bytes with a 64-bit index (--size is not used)"
            : "2^31 + 4096 bytes with an int index: it wraps negative (--size is not used)");
  v.device_bytes = [fixed](const launch_config&) {
    return overflow_elements + (fixed ? 0 : (std::size_t{1} << 31) + (std::size_t{2} << 20));
  };
  v.grid = [](const launch_config& c) { return grid_size{ceil_div(overflow_elements, c.block)}; };
  set_host_launch(v, [](const launch_config&) { return overflow_elements; });
  v.ideal = [](const launch_config&) {
    return work_counts{static_cast<double>(overflow_elements), 0};
  };
  v.prepare = [fixed](const launch_config& c,
                      cudaStream_t stream) -> std::unique_ptr<prepared_variant> {
    dbg::check_block(static_cast<unsigned>(c.block));
    return std::make_unique<overflow_prepared>(c, fixed, stream);
  };
  return v;
}

// ---- uninit_read -------------------------------------------------------------------------

namespace {

class sum_prepared final : public prepared_variant {
 public:
  sum_prepared(const launch_config& c, bool fixed)
      : m_config(c),
        m_fixed(fixed),
        m_host_in(random_floats(c.size, 0x17u ^ c.size)),
        m_in(c.size),
        m_partial(dbg::partial_count(c.size, static_cast<unsigned>(c.block))),
        m_total(1) {}
  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  // The partial sums are scratch, not output: only the total is poisoned. Poisoning them too
  // would hide the bug from initcheck, which counts a memset as a write.
  void reset(cudaStream_t stream) override { m_total.fill_bytes(0xFF, stream); }
  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_config.block);
    m_dims = m_fixed
                 ? dbg::launch_sum_partials(m_in.data(), m_partial.data(), m_total.data(),
                                            m_config.size, block, stream)
                 : dbg::launch_sum_partials_underlaunch(
                       m_in.data(), m_partial.data(), m_total.data(), m_config.size, block, stream);
    m_launched = true;
  }
  void download(cudaStream_t stream) override { m_total.copy_to_host(m_host_total, stream); }
  verify_result verify() override {
    double expected = 0;
    for (float x : m_host_in) expected += x;
    return compare_floats_as_double(m_host_total.at(0), expected);
  }
  launch_shape shape() const override {
    return m_launched ? launch_shape_2d(m_dims, m_config.size) : launch_shape{};
  }

 private:
  static verify_result compare_floats_as_double(double got, double expected) {
    // Float block sums of 2^k elements each, added in double: a relative error far below 1e-6.
    const double rel = expected != 0 ? std::abs(got - expected) / std::abs(expected) : 0;
    const bool ok = rel <= 1e-6;
    return {ok, "total " + std::to_string(got) + ", expected " + std::to_string(expected) +
                    " (rel err " + std::to_string(rel) + (ok ? " <= 1e-6)" : " > 1e-6)")};
  }
  launch_config m_config;
  bool m_fixed;
  std::vector<float> m_host_in;
  std::vector<double> m_host_total;
  device_buffer<float> m_in, m_partial;
  device_buffer<double> m_total;
  dbg::launch_dims m_dims{};
  bool m_launched = false;
};

}  // namespace

variant make_uninit_read_variant(bool fixed) {
  variant v = base_variant(fixed ? "uninit_read_fixed" : "uninit_read",
                           fixed ? variant_role::fixed : variant_role::buggy,
                           fixed ? "a two-pass sum whose first pass writes every partial sum"
                                 : "a two-pass sum reading a partial sum nobody wrote (n / t "
                                   "blocks in the first pass)");
  v.blocks = {32, 1024, 1, true, "the block sums halve the block"};
  v.device_bytes = [](const launch_config& c) {
    return sizeof(float) * (c.size + ceil_div(c.size, c.block)) + sizeof(double);
  };
  // The bug is the first pass's grid: n / t blocks, rounded down, where the fix rounds up.
  v.grid = [fixed](const launch_config& c) {
    const std::uint64_t t = static_cast<std::uint64_t>(c.block);
    return grid_size{std::max<std::uint64_t>(1, fixed ? ceil_div(c.size, c.block) : c.size / t)};
  };
  set_host_launch(v, size_of);
  v.ideal = [](const launch_config& c) {
    return work_counts{sizeof(float) * static_cast<double>(c.size), static_cast<double>(c.size)};
  };
  v.prepare = [fixed](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    return std::make_unique<sum_prepared>(c, fixed);
  };
  return v;
}

// ---- leak --------------------------------------------------------------------------------

variant make_leak_variant(bool fixed) {
  array_spec spec{fixed ? "leak_fixed" : "leak", fixed ? variant_role::fixed : variant_role::buggy,
                  fixed ? "the table belongs to the variant and is freed with it"
                        : "a lookup table made on first use and never freed (1 KiB a process)",
                  nullptr, expected_output::table_scale};
  if (!fixed) {
    variant v = array_variant(spec, nullptr);
    // The table's first use is when the point is prepared, as the fixed twin makes its own: so
    // the kernel phase holds the same launches for both (the scale kernel alone), and Nsight
    // Compute, filtered to it, counts what cudalab counts.
    v.prepare = [](const launch_config& c,
                   cudaStream_t stream) -> std::unique_ptr<prepared_variant> {
      dbg::leaky_table(stream);
      array_launch launch = [](const float* in, float* out, const launch_config& point,
                               cudaStream_t s) {
        return dbg::launch_table_scale_leaky(in, out, point.size,
                                             static_cast<unsigned>(point.block), s);
      };
      return std::make_unique<array_prepared>(c, std::move(launch), expected_output::table_scale,
                                              false);
    };
    v.grid = [](const launch_config& c) { return grid_size{ceil_div(c.size, c.block)}; };
    set_host_launch(v, size_of);
    return v;
  }
  // The fixed twin's table belongs to the run of one point: made when the point is prepared,
  // freed with it (the launch function holds it). Held by the variant instead, it would
  // outlive the CUDA runtime: the lab registry is a static, destroyed after the runtime unloads.
  variant v = array_variant(spec, nullptr);
  v.prepare = [](const launch_config& c, cudaStream_t stream) -> std::unique_ptr<prepared_variant> {
    auto table = std::make_shared<device_buffer<float>>(dbg::table_entries);
    dbg::fill_table(table->data(), stream);
    array_launch launch = [table](const float* in, float* out, const launch_config& point,
                                  cudaStream_t s) {
      return dbg::launch_table_scale(in, table->data(), out, point.size,
                                     static_cast<unsigned>(point.block), s);
    };
    return std::make_unique<array_prepared>(c, std::move(launch), expected_output::table_scale,
                                            false);
  };
  v.grid = [](const launch_config& c) { return grid_size{ceil_div(c.size, c.block)}; };
  set_host_launch(v, size_of);
  return v;
}

// ---- global_race -------------------------------------------------------------------------

namespace {

class histogram_prepared final : public prepared_variant {
 public:
  histogram_prepared(const launch_config& c, histogram_kind kind)
      : m_config(c), m_kind(kind), m_in(c.size), m_bins(dbg::histogram_bins) {
    const std::vector<std::uint32_t> values = random_uints(c.size, 0x27u ^ c.size, 0, 255);
    m_host_in.assign(values.begin(), values.end());
  }
  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override { m_bins.fill_bytes(0, stream); }
  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_config.block);
    switch (m_kind) {
      case histogram_kind::racy:
        m_dims =
            dbg::launch_histogram_racy(m_in.data(), m_bins.data(), m_config.size, block, stream);
        break;
      case histogram_kind::atomic:
        m_dims =
            dbg::launch_histogram_atomic(m_in.data(), m_bins.data(), m_config.size, block, stream);
        break;
      case histogram_kind::privatised:
        m_dims = dbg::launch_histogram_privatised(m_in.data(), m_bins.data(), m_config.size, block,
                                                  stream);
        break;
    }
    m_launched = true;
  }
  void download(cudaStream_t stream) override { m_bins.copy_to_host(m_host_bins, stream); }
  verify_result verify() override {
    std::vector<std::uint64_t> expected(dbg::histogram_bins, 0);
    for (unsigned char v : m_host_in) ++expected[v];
    std::size_t wrong = 0;
    std::uint64_t counted = 0;
    for (unsigned b = 0; b < dbg::histogram_bins; ++b) {
      counted += m_host_bins[b];
      if (m_host_bins[b] != expected[b]) ++wrong;
    }
    if (wrong == 0) return {true, "all " + std::to_string(dbg::histogram_bins) + " bins exact"};
    return {false, std::to_string(wrong) + " of " + std::to_string(dbg::histogram_bins) +
                       " bins wrong: " + std::to_string(counted) + " counted of " +
                       std::to_string(m_host_in.size())};
  }
  launch_shape shape() const override {
    return m_launched ? launch_shape_2d(m_dims, m_config.size) : launch_shape{};
  }

 private:
  launch_config m_config;
  histogram_kind m_kind;
  std::vector<unsigned char> m_host_in;
  std::vector<unsigned> m_host_bins;
  device_buffer<unsigned char> m_in;
  device_buffer<unsigned> m_bins;
  dbg::launch_dims m_dims{};
  bool m_launched = false;
};

}  // namespace

variant make_histogram_variant(histogram_kind kind) {
  const char* names[] = {"global_race", "global_race_atomic", "global_race_privatised"};
  const char* lessons[] = {
      "a histogram with bins[v] += 1: increments are lost, and no tool says so",
      "the histogram with atomicAdd on the global bins",
      "shared bins a block (shared atomics), added to the global ones once a block"};
  const auto k = static_cast<int>(kind);
  variant v = base_variant(names[k],
                           kind == histogram_kind::racy ? variant_role::buggy : variant_role::fixed,
                           lessons[k]);
  v.device_bytes = [](const launch_config& c) {
    return c.size + sizeof(unsigned) * dbg::histogram_bins;
  };
  const std::size_t most =
      kind == histogram_kind::privatised ? dbg::privatised_max_blocks : ~std::size_t{0};
  v.grid = [most](const launch_config& c) {
    return grid_size{
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(ceil_div(c.size, c.block), most))};
  };
  set_host_launch(v, size_of);
  v.ideal = [](const launch_config& c) { return work_counts{static_cast<double>(c.size), 0}; };
  v.prepare = [kind](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    dbg::check_block(static_cast<unsigned>(c.block));
    return std::make_unique<histogram_prepared>(c, kind);
  };
  return v;
}

// ---- swapped_index -----------------------------------------------------------------------

variant make_swapped_index_variant(bool fixed) {
  // The matrix is matrix_for(size): the arrays hold its elements, not --size of them.
  array_spec spec{fixed ? "swapped_index_fixed" : "swapped_index",
                  fixed ? variant_role::fixed : variant_role::buggy,
                  fixed ? "2D, x picks the column: every element lands where it belongs"
                        : "2D, row taken from x and column from y: misplaced and missing "
                          "elements, and no tool says so",
                  nullptr, expected_output::ramp};
  variant v = base_variant(spec.name, spec.role, spec.lesson);
  v.blocks = {32, 1024, 32, false, "the 2D variants launch 32 x (t/32) blocks"};
  v.device_bytes = [](const launch_config& c) {
    return 2 * sizeof(float) * dbg::matrix_for(c.size).elements();
  };
  v.ideal = [](const launch_config& c) { return copy_work(dbg::matrix_for(c.size).elements()); };
  v.grid = [](const launch_config& c) {
    const dbg::launch_dims d =
        dbg::matrix_dims(dbg::matrix_for(c.size), static_cast<unsigned>(c.block));
    return grid_size{d.grid.x, d.grid.y};
  };
  set_host_launch(
      v, [](const launch_config& c) { return dbg::matrix_for(c.size).elements(); }, true);
  v.prepare = [fixed](const launch_config& c, cudaStream_t) -> std::unique_ptr<prepared_variant> {
    class matrix_prepared final : public prepared_variant {
     public:
      matrix_prepared(const launch_config& c, bool fixed)
          : m_config(c),
            m_shape(dbg::matrix_for(c.size)),
            m_fixed(fixed),
            m_host_in(random_floats(m_shape.elements(), 0x37u ^ c.size)),
            m_in(m_shape.elements()),
            m_out(m_shape.elements()) {}
      void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
      void reset(cudaStream_t stream) override { m_out.fill_bytes(0xFF, stream); }
      void launch(cudaStream_t stream) override {
        const auto t = static_cast<unsigned>(m_config.block);
        m_dims =
            m_fixed ? dbg::launch_scale_rows(m_in.data(), m_out.data(), m_shape, t, stream)
                    : dbg::launch_scale_rows_swapped(m_in.data(), m_out.data(), m_shape, t, stream);
        m_launched = true;
      }
      void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
      verify_result verify() override {
        std::vector<float> want(m_shape.elements());
        for (std::size_t r = 0; r < m_shape.rows; ++r)
          for (std::size_t col = 0; col < m_shape.cols; ++col)
            want[r * m_shape.cols + col] =
                dbg::scaled_plus_row(m_host_in[r * m_shape.cols + col], r);
        verify_result v = check_floats(m_host_out, want, 0);
        v.detail +=
            " (" + std::to_string(m_shape.rows) + " x " + std::to_string(m_shape.cols) + " matrix)";
        return v;
      }
      launch_shape shape() const override {
        return m_launched ? launch_shape_2d(m_dims, m_shape.elements()) : launch_shape{};
      }

     private:
      launch_config m_config;
      dbg::matrix_shape m_shape;
      bool m_fixed;
      std::vector<float> m_host_in, m_host_out;
      device_buffer<float> m_in, m_out;
      dbg::launch_dims m_dims{};
      bool m_launched = false;
    };
    dbg::matrix_dims(dbg::matrix_for(c.size), static_cast<unsigned>(c.block));
    return std::make_unique<matrix_prepared>(c, fixed);
  };
  return v;
}

}  // namespace cudalab::labs
