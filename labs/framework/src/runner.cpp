// The runner: for each variant and launch_config, prepare, time, verify, then collect counters.
// Timing and counters never overlap: counters come from separate launches after timing.
#include "cudalab/runner.hpp"

#include "background_results.hpp"
#include "counter_batch.hpp"
#include "cudalab/check.hpp"
#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/kernel_image.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/nvtx.hpp"
#include "cudalab/stream.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace cudalab {

std::optional<double> counter_cell::get(std::string_view metric) const {
  std::string name(metric);
  if (const metric_info* info = find_metric(metric)) name = info->cupti_name;
  const auto it = totals.find(name);
  if (it == totals.end()) return std::nullopt;
  return it->second;
}

double measured_copy_gbps(int device) {
  static std::map<int, double> measured;
  if (auto it = measured.find(device); it != measured.end()) return it->second;
  select_device(device);
  // 256 MiB each way: far beyond L2 (50 MB), so this is DRAM bandwidth.
  const std::size_t bytes = std::size_t{256} << 20;
  device_buffer<unsigned char> src(bytes), dst(bytes);
  cuda_stream stream;
  src.fill_bytes(0x5a, stream.get());
  const timing_stats t = time_on_stream(stream.get(), 3, 20, [&] {
    CUDALAB_CHECK_CUDA(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice,
                                       stream.get()));
  });
  const double gbps = 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
  measured[device] = gbps;
  return gbps;
}

namespace {

struct point {
  const variant* which;
  launch_config config;
};

std::vector<point> expand(const run_request& request) {
  const lab& l = *request.which;
  std::vector<const variant*> variants = request.variants;
  if (variants.empty())
    for (const auto& v : l.variants)
      if (v.role != variant_role::exercise) variants.push_back(&v);
  std::vector<std::size_t> sizes = request.sizes;
  if (sizes.empty()) sizes.push_back(l.default_size);

  std::vector<point> points;
  for (const variant* v : variants) {
    std::vector<int> blocks = request.blocks;
    if (blocks.empty()) blocks.push_back(v->default_block);
    std::vector<long> params{0};
    if (v->sweep) params = request.sweep.empty() ? v->sweep->default_values : request.sweep;
    for (std::size_t size : sizes)
      for (int block : blocks)
        for (long param : params) {
          if (block < 1 || block > v->max_block)
            throw usage_error("--block " + std::to_string(block) + " is not valid for " + l.id +
                              "/" + v->name + ": use 1.." + std::to_string(v->max_block) +
                              " threads");
          if (v->sweep && (param < v->sweep->min || param > v->sweep->max))
            throw usage_error("--sweep " + std::to_string(param) + " is outside " + v->name +
                              "'s " + v->sweep->name + " range " + std::to_string(v->sweep->min) +
                              ".." + std::to_string(v->sweep->max));
          if (size > (std::size_t{1} << 36))
            throw usage_error("--size " + std::to_string(size) +
                              " is larger than any GPU's memory can hold");
          if (l.max_size && size > l.max_size)
            throw usage_error("--size " + std::to_string(size) + " is larger than " + l.id +
                              " allows (" + std::to_string(l.max_size) + ")");
          points.push_back({v, launch_config{size, block, param}});
        }
  }
  return points;
}

// The model's prediction, or nothing when the variant has none.
std::optional<model::access_counts> predict(const variant& v, const launch_config& c) {
  if (!v.predict) return std::nullopt;
  return v.predict(c);
}

result_row predicted_row(const lab& l, const point& p) {
  result_row row;
  row.lab_id = l.id;
  row.variant_name = p.which->name;
  row.role = p.which->role;
  if (p.which->sweep) row.sweep_name = p.which->sweep->name;
  row.config = p.config;
  if (p.which->ideal) row.ideal = p.which->ideal(p.config);
  row.predicted = predict(*p.which, p.config);
  return row;
}

}  // namespace

std::vector<result_row> run_lab(const run_request& request,
                                const std::function<void(const result_row&)>& on_row) {
  if (!request.which) throw usage_error("no lab given");
  const lab& l = *request.which;
  const std::vector<point> points = expand(request);
  if (request.repeat < 1) throw usage_error("--repeat must be at least 1");

  const auto predict_point = [&](std::size_t i) { return predicted_row(l, points[i]); };
  std::vector<result_row> rows;
  if (!request.gpu) {
    background_results<result_row> predictions(points.size(), predict_point);
    for (std::size_t i = 0; i < points.size(); ++i) {
      result_row row = predictions.take(i);
      row.check.detail = "n/a (no GPU)";
      row.counters.reason = "no GPU";
      if (on_row) on_row(row);
      rows.push_back(std::move(row));
    }
    return rows;
  }

  select_device(request.device);
  const device_facts facts = query_device(request.device);
  require_kernel_image(facts.cc_major, facts.cc_minor, facts.name);
  for (const point& p : points) {
    if (p.config.size > facts.global_memory_total)
      throw usage_error("--size " + std::to_string(p.config.size) + " is larger than " +
                        facts.name + "'s memory (" + format_bytes(static_cast<double>(facts.global_memory_total)) + ")");
    if (p.which->device_bytes) {
      const std::size_t need = p.which->device_bytes(p.config);
      if (need > facts.global_memory_free)
        throw usage_error(l.id + "/" + p.which->name + " at --size " +
                          std::to_string(p.config.size) + " needs " + format_bytes(need) +
                          " of GPU memory but " + facts.name + " has " +
                          format_bytes(facts.global_memory_free) + " free");
    }
  }
  // Sizes are checked first: only then may the model start simulating them.
  background_results<result_row> predictions(points.size(), predict_point);
  const double roof = measured_copy_gbps(request.device);
  // Waiting points may hold a quarter of the free memory between them.
  counter_batch counters(request, facts.global_memory_free / 4);
  cuda_stream stream;

  std::size_t emitted = 0;
  const auto emit_final_rows = [&] {
    const std::size_t end = counters.first_pending().value_or(rows.size());
    for (; emitted < end; ++emitted)
      if (on_row) on_row(rows[emitted]);
  };
  for (std::size_t i = 0; i < points.size(); ++i) {
    const point& p = points[i];
    result_row row = predictions.take(i);
    row.measured = true;
    std::unique_ptr<prepared_variant> prepared;
    {
      nvtx::scoped_range lab_range(l.id, l.id);
      nvtx::scoped_range variant_range(p.which->name, l.id);
      {
        nvtx::scoped_range phase("alloc", l.id);
        prepared = p.which->prepare(p.config, stream.get());
      }
      {
        nvtx::scoped_range phase("h2d", l.id);
        prepared->upload(stream.get());
        stream.synchronize();
      }
      row.shape = prepared->shape();
      {
        nvtx::scoped_range phase("kernel", l.id);
        row.time = time_on_stream(
            stream.get(), request.warmup, request.repeat, [&] { prepared->launch(stream.get()); },
            [&] { prepared->reset(stream.get()); });
      }
      {
        nvtx::scoped_range phase("d2h", l.id);
        prepared->download(stream.get());
      }
      {
        nvtx::scoped_range phase("verify", l.id);
        row.check = prepared->verify();
      }
    }
    if (row.time.median_ms > 0) {
      row.gbps = row.ideal.bytes / (row.time.median_ms * 1e-3) / 1e9;
      row.pct_of_roof = roof > 0 ? 100.0 * row.gbps / roof : 0;
      row.payload_gbps = row.ideal.payload() / (row.time.median_ms * 1e-3) / 1e9;
    }
    rows.push_back(std::move(row));
    // Counters later, in separate launches shared with the points around it (counter_batch).
    if (counters.wants(*p.which, rows.back().counters)) {
      std::optional<std::size_t> bytes;
      if (p.which->device_bytes) bytes = p.which->device_bytes(p.config);
      counters.add(rows, rows.size() - 1, *p.which, std::move(prepared), bytes, stream.get());
    }
    emit_final_rows();
  }
  counters.collect(rows, stream.get());
  emit_final_rows();
  return rows;
}

}  // namespace cudalab
