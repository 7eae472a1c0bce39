// The runner: for each variant and launch_config, prepare, time, verify, then collect counters.
// Timing and counters never overlap: counters come from separate launches after timing.
#include "cudalab/runner.hpp"

#include "background_results.hpp"
#include "counter_batch.hpp"
#include "cudalab/check.hpp"
#include "cudalab/copy_roof.hpp"
#include "cudalab/counters.hpp"
#include "cudalab/device.hpp"
#include "cudalab/device_buffer.hpp"
#include "cudalab/format_text.hpp"
#include "cudalab/kernel_image.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/model_budget.hpp"
#include "cudalab/nvtx.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/trace/trace_marks.hpp"
#include "cudalab/trace_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace cudalab {

std::optional<double> counter_cell::get(std::string_view metric) const {
  return metric_value(totals, metric);
}

std::vector<long> sweep_values(const variant& v, const sweep_request& request,
                               std::vector<long>* dropped) {
  if (!v.sweep) return {0};
  const sweep_spec& sweep = *v.sweep;
  const std::string range = sweep.range_text();
  if (request.full) {
    if (!sweep.only.empty()) return sweep.only;
    std::vector<long> all;
    for (long p = sweep.min; p <= sweep.max; ++p) all.push_back(p);
    return all;
  }
  if (const auto own = request.values.find(sweep.name); own != request.values.end()) {
    for (long p : own->second)
      if (!sweep.accepts(p))
        throw usage_error("--sweep " + sweep.name + "=" + std::to_string(p) + " is outside the " +
                          sweep.name + " range " + range + " of " + v.name);
    return own->second;
  }
  const auto bare = request.values.find("");
  if (bare == request.values.end()) return sweep.default_values;
  std::vector<long> inside;
  for (long p : bare->second) {
    if (sweep.accepts(p))
      inside.push_back(p);
    else if (dropped)
      dropped->push_back(p);
  }
  if (inside.empty())
    throw usage_error("--sweep: none of the values is inside the " + sweep.name + " range " +
                      range + " of " + v.name);
  return inside;
}

namespace {

// Milliseconds since the last lap, on the host's steady clock.
class host_clock {
 public:
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - m_last).count();
    m_last = now;
    return ms;
  }

 private:
  std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
};

struct point {
  const variant* which;
  launch_config config;
};

std::vector<const variant*> variants_of(const run_request& request) {
  std::vector<const variant*> variants = request.variants;
  if (variants.empty())
    for (const auto& v : request.which->variants)
      if (v.role != variant_role::exercise) variants.push_back(&v);
  return variants;
}

// Whether the grid fits CUDA's limits; otherwise one line saying which dimension is too large.
std::string grid_violation(const grid_size& g, const grid_limits& limits) {
  const auto over = [](const char* axis, std::uint64_t blocks, std::uint64_t limit) {
    return std::to_string(blocks) + " blocks in " + axis + ", CUDA allows " + std::to_string(limit);
  };
  if (g.x > limits.x) return over("x", g.x, limits.x);
  if (g.y > limits.y) return over("y", g.y, limits.y);
  if (g.z > limits.z) return over("z", g.z, limits.z);
  return {};
}

std::vector<point> expand(const run_request& request, const grid_limits& limits) {
  const lab& l = *request.which;
  std::vector<std::size_t> omitted;
  std::vector<std::size_t> sizes = request.sizes;
  if (sizes.empty()) sizes.push_back(l.default_size);

  std::vector<point> points;
  std::vector<std::string> own_blocks;  // variants whose kernels choose their own block
  const auto chosen = variants_of(request);
  for (const variant* v : chosen) {
    std::vector<int> blocks = request.blocks;
    if (blocks.empty() || v->threads_per_block) blocks = {v->default_block};
    if (v->threads_per_block) own_blocks.push_back(v->name);
    const std::vector<long> params = sweep_values(*v, request.sweep);
    const std::string name = l.id + "/" + v->name;
    omitted.clear();
    for (std::size_t size : sizes)
      for (int block : blocks)
        for (long param : params) {
          if (const std::string why = v->blocks.violation(block); !why.empty())
            throw usage_error("--block " + std::to_string(block) + " does not suit " + v->name +
                              ": " + why);
          if (size > (std::size_t{1} << 36))
            throw usage_error("--size " + std::to_string(size) +
                              " is larger than any GPU's memory can hold");
          if (l.max_size && size > l.max_size)
            throw usage_error("--size " + std::to_string(size) + " is larger than " + l.id +
                              " allows (" + std::to_string(l.max_size) + ")");
          if (v->max_size && size > v->max_size) {
            if (std::find(omitted.begin(), omitted.end(), size) == omitted.end()) {
              omitted.push_back(size);
              if (request.omitted)
                request.omitted(name + " omitted at --size " + std::to_string(size) +
                                " (it runs up to " + std::to_string(v->max_size) + ")");
            }
            continue;
          }
          launch_config config{size, block, param};
          if (v->threads_per_block) config.block = v->threads_per_block(config);
          if (v->grid)
            if (const std::string why = grid_violation(v->grid(config), limits); !why.empty())
              throw usage_error(v->name + " at --size " + std::to_string(size) + " --block " +
                                    std::to_string(block) + ": " + why,
                                "raise --block or lower --size");
          if (v->config_violation)
            if (const std::string why = v->config_violation(config); !why.empty())
              throw usage_error(name + " at --size " + std::to_string(size) + " --block " +
                                std::to_string(block) + ": " + why);
          points.push_back({v, config});
        }
  }
  if (!request.blocks.empty() && !own_blocks.empty()) {
    std::string names = joined(own_blocks);
    if (names.size() > 45) names = l.id + "'s " + std::to_string(own_blocks.size()) + " variants";
    const bool any_uses_it = std::any_of(chosen.begin(), chosen.end(), [](const variant* v) {
      return v->role != variant_role::baseline && !v->threads_per_block;
    });
    if (!any_uses_it)
      throw usage_error("--block does not apply to " + names +
                        ": their tiles set their blocks (drop --block)");
    if (request.omitted)
      request.omitted("--block is not used by " + names + ": their rows show their tiles' blocks");
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
  row.block_from_config = p.which->has_kernels && !p.which->library_launch;
  if (p.which->ideal) row.ideal = p.which->ideal(p.config);
  row.predicted = predict(*p.which, p.config);
  if (p.which->host_launch) row.shape = p.which->host_launch(p.config);
  return row;
}

}  // namespace

void check_run_request(const run_request& request) {
  if (!request.which) throw usage_error("no lab given");
  if (request.repeat < 1) throw usage_error("--repeat must be at least 1");
  const std::vector<point> points = expand(request, grid_limits{});
  if (points.empty())
    throw usage_error("nothing to run: every variant asked for is above its size limit");
  check_model_budget(*request.which, points);
}

namespace {

// The GPU's facts and grid limits; every GPU's limits where the request runs none.
struct run_device {
  std::optional<device_facts> facts;
  grid_limits limits;
};

run_device open_device(const run_request& request) {
  run_device d;
  if (!request.gpu) return d;
  d.facts = query_device(request.device);
  // A build without code for this GPU stops here, saying which architecture to build.
  require_kernel_image(d.facts->cc_major, d.facts->cc_minor, d.facts->name);
  d.limits = {static_cast<std::uint64_t>(d.facts->max_grid_dim[0]),
              static_cast<std::uint64_t>(d.facts->max_grid_dim[1]),
              static_cast<std::uint64_t>(d.facts->max_grid_dim[2])};
  return d;
}

// Every point's size against the GPU's memory, before anything is allocated.
void check_points_fit(const std::vector<point>& points, const device_facts& facts) {
  for (const point& p : points) {
    if (p.config.size > facts.global_memory_total)
      throw usage_error("--size " + std::to_string(p.config.size) + " is larger than " +
                        facts.name + "'s memory (" +
                        format_bytes(static_cast<double>(facts.global_memory_total)) + ")");
    if (p.which->device_bytes) {
      const std::size_t need = p.which->device_bytes(p.config);
      if (need > facts.global_memory_free)
        throw usage_error(p.which->name + " at --size " + std::to_string(p.config.size) +
                          " needs " + format_bytes(need) + " of GPU memory but " + facts.name +
                          " has " + format_bytes(facts.global_memory_free) + " free");
    }
  }
}

std::string counted(std::size_t i, std::size_t of) {
  return " (" + std::to_string(i + 1) + " of " + std::to_string(of) + ")";
}

// Without a GPU: the model's predictions alone, computed in the background in order.
std::vector<result_row> predict_only(const run_request& request, const std::vector<point>& points) {
  const lab& l = *request.which;
  background_results<result_row> predictions(
      points.size(), [&](std::size_t i) { return predicted_row(l, points[i]); });
  std::vector<result_row> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (request.progress)
      request.progress("predicting " + l.id + "/" + points[i].which->name +
                       counted(i, points.size()));
    result_row row = predictions.take(i);
    row.verification.detail = "n/a (no GPU)";
    row.counters.reason = "no GPU";
    rows.push_back(std::move(row));
  }
  return rows;
}

// Times a point's launches: the first traced under its label when the tracer is attached
// (cudalab run --trace's second process, or check's fallback); the rest run untraced.
timing_stats time_point(const point& p, const run_request& request, prepared_variant& prepared,
                        cuda_stream& stream, bool tracing, verify_result& every_launch) {
  bool traced = !tracing;
  const std::string label =
      trace::trace_point_label(p.which->name, p.config.size, p.config.block, p.config.param);
  int launches = 0;
  const auto launch = [&] {
    ++launches;
    if (traced) return prepared.launch(stream.get());
    traced = true;
    trace::scoped_point mark(label);
    prepared.launch(stream.get());
  };
  const int cap = p.which->max_timed_runs;
  const int warmup = cap > 0 ? std::min(request.warmup, 1) : request.warmup;
  const int repeat = cap > 0 ? std::min(request.repeat, cap) : request.repeat;
  // Before each launch but the first, the previous one's answer where every launch is verified
  // (the last is verified after the timing, as in every run).
  const auto verify_previous = [&] {
    if (!request.verify_every_launch || launches == 0 || !every_launch.ok) return;
    prepared.download(stream.get());
    const verify_result r = prepared.verify();
    if (!r.ok)
      every_launch = {false, "launch " + std::to_string(launches) + " of " +
                                 std::to_string(warmup + repeat) +
                                 " (warm-ups first): " + r.detail};
  };
  if (p.which->timed_on_host)
    return time_on_host(warmup, repeat, launch, [&] {
      verify_previous();
      prepared.reset(stream.get());
      stream.synchronize();
    });
  return time_on_stream(stream.get(), warmup, repeat, launch, [&] {
    verify_previous();
    prepared.reset(stream.get());
  });
}

// One point on the GPU, each phase in its NVTX range and timed on the host: allocate, upload,
// time the launches, download, verify. Returns the prepared point for the counters to reuse.
std::unique_ptr<prepared_variant> measure_point(const point& p, const run_request& request,
                                                result_row& row, cuda_stream& stream,
                                                bool tracing) {
  const std::string& lab_id = request.which->id;
  host_clock clock;
  nvtx::scoped_range lab_range(lab_id, lab_id);
  nvtx::scoped_range variant_range(p.which->name, lab_id);
  std::unique_ptr<prepared_variant> prepared;
  verify_result every_launch{true, ""};  // the earlier launches' answers (verify_every_launch)
  {
    nvtx::scoped_range phase("alloc", lab_id);
    prepared = p.which->prepare(p.config, stream.get());
    row.phases.alloc_ms = clock.lap_ms();
  }
  {
    nvtx::scoped_range phase("h2d", lab_id);
    prepared->upload(stream.get());
    stream.synchronize();
    row.phases.h2d_ms = clock.lap_ms();
  }
  if (p.which->resources) row.resources = p.which->resources(p.config);
  {
    nvtx::scoped_range phase("kernel", lab_id);
    row.time = time_point(p, request, *prepared, stream, tracing, every_launch);
    row.phases.kernel_ms = clock.lap_ms();
  }
  {
    nvtx::scoped_range phase("d2h", lab_id);
    prepared->download(stream.get());
    row.phases.d2h_ms = clock.lap_ms();
  }
  // After the launches and the download: only then does a variant know whether its launch ran.
  row.shape = prepared->shape();
  row.overwritten_past_outputs = prepared->words_overwritten_past_outputs();
  {
    nvtx::scoped_range phase("verify", lab_id);
    row.verification = prepared->verify();
    if (row.verification.ok && !every_launch.ok) row.verification = every_launch;
    row.phases.verify_ms = clock.lap_ms();
  }
  return prepared;
}

// Bandwidths from the median time: of the ideal bytes, against the copy roof, of the payload.
void add_bandwidths(result_row& row, const copy_roof& roof) {
  if (row.time.median_ms <= 0) return;
  row.gbps = row.ideal.bytes / (row.time.median_ms * 1e-3) / 1e9;
  row.roof = roof;
  row.pct_of_roof = roof.gbps() > 0 ? 100.0 * row.gbps / roof.gbps() : 0;
  row.payload_gbps = row.ideal.payload() / (row.time.median_ms * 1e-3) / 1e9;
}

}  // namespace

std::vector<result_row> run_lab(const run_request& request) {
  if (!request.which) throw usage_error("no lab given");
  if (request.repeat < 1) throw usage_error("--repeat must be at least 1");
  const lab& l = *request.which;
  const run_device device = open_device(request);
  const std::vector<point> points = expand(request, device.limits);
  if (points.empty())
    throw usage_error("nothing to run: every variant asked for is above its size limit");
  if (!request.gpu) {
    check_model_budget(l, points);
    if (request.accepted) request.accepted();
    return predict_only(request, points);
  }
  select_device(request.device);
  check_points_fit(points, *device.facts);
  // Sizes are checked first: only then may the model start simulating them.
  check_model_budget(l, points);
  if (request.accepted) request.accepted();
  background_results<result_row> predictions(
      points.size(), [&](std::size_t i) { return predicted_row(l, points[i]); });
  const auto say = [&](const std::string& what) {
    if (request.progress) request.progress(what);
  };
  const bool tracing = trace::tracing_this_process();
  // Traced, every kernel runs instrumented: the copy kernel's time would say nothing.
  say(tracing ? "measuring the copy roof (cudaMemcpy device to device)"
              : "measuring the copy roof (cudaMemcpy and a copy kernel, device to device)");
  const copy_roof roof = measured_copy_roof(request.device, !tracing);
  // Waiting points may hold a quarter of the free memory between them.
  counter_batch counters(request, device.facts->global_memory_free / 4);
  cuda_stream stream;
  // The tracer appends for the life of the process (check's grader runs several requests):
  // this request's launches are the lines written from here on.
  const std::uintmax_t trace_start =
      tracing ? trace::trace_file_end(trace::trace_output_file()) : 0;

  std::vector<result_row> rows;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const point& p = points[i];
    say("timing " + l.id + "/" + p.which->name + counted(i, points.size()));
    host_clock clock;
    result_row row = predictions.take(i);
    row.measured = true;
    row.phases.wait_ms = clock.lap_ms();
    std::unique_ptr<prepared_variant> prepared = measure_point(p, request, row, stream, tracing);
    if (prepared->kernel_ran()) add_bandwidths(row, roof);
    rows.push_back(std::move(row));
    // Counters later, in separate launches shared with the points around it (counter_batch).
    if (counters.wants(*p.which, rows.back().counters)) {
      std::optional<std::size_t> bytes;
      if (p.which->device_bytes) bytes = p.which->device_bytes(p.config);
      counters.add(rows, rows.size() - 1, *p.which, std::move(prepared), bytes, stream.get());
    }
  }
  counters.collect(rows, stream.get());
  if (tracing) {
    attach_traces(rows, trace::read_trace_file(trace::trace_output_file(), trace_start),
                  "no traced launch (library call)");
    // Counters refused here (the check's fallback): the graders read the trace.
    for (result_row& row : rows)
      if (!row.counters.available) counters_from_trace(row);
  }
  return rows;
}

}  // namespace cudalab
