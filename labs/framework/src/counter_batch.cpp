#include "counter_batch.hpp"

#include "cudalab/check.hpp"
#include "cudalab/host_data.hpp"
#include "cudalab/metrics.hpp"
#include "cudalab/nvtx.hpp"
#include "cudalab/stream.hpp"

#include <algorithm>
#include <limits>

namespace cudalab {
namespace {

std::vector<std::string> metrics_for(const run_request& request) {
  std::vector<std::string> metrics = request.metrics;
  if (metrics.empty()) {
    metrics = resolve_metric_names(request.which->default_metrics);
    if (metrics.empty()) metrics = resolve_metrics("memory");
    // DRAM bytes beside the ideal bytes in every default run (one more pass at most).
    for (const auto& m : resolve_metrics("dram_read_bytes,dram_write_bytes"))
      if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  }
  for (const auto& m : request.extra_metrics)
    if (std::find(metrics.begin(), metrics.end(), m) == metrics.end()) metrics.push_back(m);
  return metrics;
}

// How many kernels one launch() of the point starts, read from a CUDA graph captured from it:
// capture records the launches without running them. nullopt when the launch cannot be
// captured (it synchronizes, or calls something capture does not allow).
std::optional<std::size_t> count_kernels(prepared_variant& prepared, cudaStream_t stream) {
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  bool launched = true;
  try {
    prepared.launch(stream);
  } catch (const std::exception&) {
    launched = false;
  }
  cuda_graph graph;
  const cudaError_t ended = cudaStreamEndCapture(stream, graph.receive());
  cudaGetLastError();  // a refused capture leaves a sticky-free error behind: clear it
  std::optional<std::size_t> kernels;
  if (launched && ended == cudaSuccess && graph.get() != nullptr) {
    std::size_t count = 0;
    if (cudaGraphGetNodes(graph.get(), nullptr, &count) == cudaSuccess) {
      std::vector<cudaGraphNode_t> nodes(count);
      if (count == 0 || cudaGraphGetNodes(graph.get(), nodes.data(), &count) == cudaSuccess) {
        std::size_t found = 0;
        bool ok = true;
        for (cudaGraphNode_t node : nodes) {
          cudaGraphNodeType type{};
          ok &= cudaGraphNodeGetType(node, &type) == cudaSuccess;
          found += type == cudaGraphNodeTypeKernel;
        }
        if (ok) kernels = found;
      }
    }
  }
  cudaGetLastError();
  return kernels;
}

// DRAM write metrics (dram__bytes_write.sum, dram__sectors_write.sum): what a kernel's dirty
// lines still owe when it ends is written back during the next flush.
bool is_dram_write(const std::string& cupti_name) {
  return cupti_name.rfind("dram__", 0) == 0 && cupti_name.find("write") != std::string::npos &&
         cupti_name.size() > 4 && cupti_name.compare(cupti_name.size() - 4, 4, ".sum") == 0;
}

// Whether a metric can change with what the L2 holds when the kernel starts. SM and L1
// counters cannot (L1 starts each kernel empty of global data): for them no flush is needed,
// which halves the ranges of a pass. Anything else (dram__, lts__, gpu__ durations) gets a
// cold L2.
bool depends_on_l2_state(const std::string& cupti_name) {
  for (const char* prefix : {"smsp__", "sm__", "l1tex__"})
    if (cupti_name.rfind(prefix, 0) == 0) return false;
  return true;
}

}  // namespace

counter_batch::counter_batch(const run_request& request, std::size_t memory_budget)
    : m_lab_id(request.which->id),
      m_progress(request.progress),
      m_fresh_inputs(request.fresh_inputs_for_counters),
      m_budget(memory_budget) {
  if (!request.counters) {
    m_reason = "disabled (--no-counters)";
    return;
  }
  try {
    // User replay: the batch restores its points' buffers and evicts the L2 itself, in
    // microseconds, where CUPTI's kernel replay costs ~13 ms a pass.
    const std::vector<std::string> metrics = metrics_for(request);
    m_session = std::make_unique<counter_session>(request.device, metrics, counter_replay::user);
    m_missing = m_session->missing();
    const std::vector<std::string>& collected = m_session->metrics();
    if (std::any_of(collected.begin(), collected.end(), depends_on_l2_state)) {
      m_flush = std::make_unique<l2_flush>();
      m_ranges = 1;
    }
  } catch (const counters_unavailable& e) {
    m_reason = e.availability().reason;
  }
}

bool counter_batch::wants(const variant& v, counter_cell& cell) const {
  if (!m_session) {
    cell.reason = m_reason;
    return false;
  }
  if (!v.has_kernels) {
    cell.reason = "no kernels (library call)";
    return false;
  }
  return true;
}

void counter_batch::add(std::vector<result_row>& rows, std::size_t row, const variant& v,
                        std::unique_ptr<prepared_variant> prepared,
                        std::optional<std::size_t> bytes, cudaStream_t stream) {
  const std::optional<std::size_t> kernels = count_kernels(*prepared, stream);
  // An unknown size or kernel count: this point is collected alone.
  const std::size_t need = bytes && kernels ? *bytes : std::numeric_limits<std::size_t>::max();
  const std::size_t ranges =
      (m_flush ? 1 : 0) + kernels.value_or(counter_session::max_kernels_per_collect);
  if (!m_pending.empty() &&
      (need > m_budget - m_bytes || m_ranges + ranges > counter_session::max_kernels_per_collect))
    collect(rows, stream);
  m_pending.push_back({row, &v, std::move(prepared), need, kernels});
  m_bytes = std::min(m_budget, m_bytes + std::min(need, m_budget));
  m_ranges += ranges;
  if (!m_session) mark_unavailable(rows, m_pending);  // lost during an earlier collect
}

void counter_batch::collect(std::vector<result_row>& rows, cudaStream_t stream) {
  std::vector<pending> points = std::move(m_pending);
  m_pending.clear();
  m_bytes = 0;
  m_ranges = m_flush ? 1 : 0;
  if (points.empty()) return;
  try {
    collect_together(rows, points, stream);
  } catch (const error& e) {
    // A variant that launches more kernels than the batch has ranges for: one at a time.
    if (points.size() == 1 || std::string(e.what()).find("dropped") == std::string::npos) throw;
    for (auto& p : points) {
      std::vector<pending> one;
      one.push_back(std::move(p));
      collect_together(rows, one, stream);
    }
  }
}

void counter_batch::mark_unavailable(std::vector<result_row>& rows, std::vector<pending>& points) {
  for (auto& p : points) {
    rows[p.row].counters = counter_cell{};
    rows[p.row].counters.reason = m_reason;
  }
  points.clear();
}

void counter_batch::collect_together(std::vector<result_row>& rows, std::vector<pending>& points,
                                     cudaStream_t stream) {
  if (!m_session) return mark_unavailable(rows, points);
  counter_result result;
  int pass = 0;
  try {
    result = m_session->collect(
        [&] {
          for (auto& p : points) {
            nvtx::scoped_range lab_range(m_lab_id, m_lab_id);
            nvtx::scoped_range variant_range(p.which->name, m_lab_id);
            nvtx::scoped_range phase("counters", m_lab_id);
            if (m_flush) m_flush->evict(stream);
            // The launch sees the variation its inputs were made under, as prepare did.
            const input_variation_scope inputs(p.variation);
            p.prepared->launch(stream);
          }
          if (m_flush) m_flush->evict(stream);  // writes back the last point's dirty lines
          CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
        },
        [&] {
          if (m_progress)
            m_progress("counters: " + std::to_string(points.size()) + " point(s), pass " +
                       std::to_string(++pass) + " of " + std::to_string(m_session->passes()));
          if (m_fresh_inputs)
            prepare_fresh_inputs(rows, points, stream);
          else
            for (auto& p : points) p.prepared->reset(stream);
          CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));
        });
  } catch (const counters_unavailable& e) {
    // Refused at Start (permission) or a profiler attached mid-run: carry on without.
    m_reason = e.availability().reason;
    m_session.reset();
    return mark_unavailable(rows, points);
  }

  // The ranges in launch order: [flush,] the point's kernels, [flush,] the next point's, ...
  // [, flush]. A point of unknown kernel count is alone in its collect.
  const std::size_t flushes = m_flush ? 1 : 0;
  std::vector<std::vector<kernel_counters>> per_point;
  std::vector<const kernel_counters*> write_backs;  // the flush after each point, if any
  std::size_t next = 0;
  for (const auto& p : points) {
    const std::size_t first = next + flushes;
    const std::size_t last = p.kernels ? first + *p.kernels : result.kernels.size() - flushes;
    if (last + flushes > result.kernels.size() || first > last)
      throw error("counters: CUPTI measured " + std::to_string(result.kernels.size()) +
                  " kernels, fewer than the " + std::to_string(points.size()) +
                  " points of one collect launched");
    per_point.emplace_back(result.kernels.begin() + static_cast<std::ptrdiff_t>(first),
                           result.kernels.begin() + static_cast<std::ptrdiff_t>(last));
    write_backs.push_back(flushes ? &result.kernels[last] : nullptr);
    next = last;
  }
  if (next + flushes != result.kernels.size())
    throw error("counters: " + std::to_string(result.kernels.size() - next - flushes) +
                " kernel range(s) more than the points of one collect launched");
  for (std::size_t i = 0; i < points.size(); ++i) {
    counter_cell& cell = rows[points[i].row].counters;
    cell = counter_cell{};
    if (per_point[i].empty()) {
      cell.reason = counter_cell::no_kernel_ran;
      continue;
    }
    cell.available = true;
    cell.missing = m_missing;
    cell.totals = combine_totals(per_point[i]);
    for (auto& [name, value] : cell.totals)
      if (write_backs[i] && is_dram_write(name)) value += write_backs[i]->values.at(name);
    add_derived_metrics(cell.totals);
    for (auto& kernel : per_point[i]) add_derived_metrics(kernel.values);
    // A derived metric is missing where one of its terms is.
    for (const auto& m : metric_catalogue())
      for (const auto& term : m.derived_from)
        if (const auto it = cell.missing.find(find_metric(term.metric)->cupti_name);
            it != cell.missing.end())
          cell.missing.emplace(m.key(), it->second);
    cell.per_kernel = std::move(per_point[i]);
  }
  if (m_fresh_inputs) verify_counted_launches(rows, points, stream);
  points.clear();
}

void counter_batch::prepare_fresh_inputs(std::vector<result_row>& rows,
                                         std::vector<pending>& points, cudaStream_t stream) {
  // The pass before this one launched on inputs of its own: its answer is verified before its
  // point goes, so that every counted launch, not only the last, must be right.
  if (points.front().variation != 0) verify_counted_launches(rows, points, stream);
  for (auto& p : points) {
    p.variation = fresh_input_variation();
    const input_variation_scope inputs(p.variation);
    p.prepared.reset();  // its memory first: the new point takes as much
    p.prepared = p.which->prepare(rows[p.row].config, stream);
    p.prepared->upload(stream);
    p.prepared->reset(stream);
  }
}

void counter_batch::verify_counted_launches(std::vector<result_row>& rows,
                                            std::vector<pending>& points, cudaStream_t stream) {
  for (auto& p : points) {
    const input_variation_scope inputs(p.variation);
    p.prepared->download(stream);
    const verify_result counted = p.prepared->verify();
    verify_result& row = rows[p.row].verification;
    if (row.ok && !counted.ok)
      row = {false, "a counted launch, on inputs of its own: " + counted.detail};
  }
}

}  // namespace cudalab
