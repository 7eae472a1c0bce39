// The runner's counters: one CUPTI session for the whole run, several points per collect.
//
// CUPTI's Start/Stop costs about 10 ms a pass on the H100 whatever a pass measures (lab 04 at
// 1M: 213 passes, one point at a time, took 2.3 s), so the points whose timing is done wait
// here, buffers and all, and share their passes: as many points as their kernels and flushes
// fit in one collect's ranges, within a device-memory budget. In each pass every point runs after
// an L2 flush (one kernel of its own). CUPTI names auto ranges by index only, so each point's
// kernels are counted beforehand by capturing its launch into a CUDA graph (nothing runs); the
// ranges are then cut as flush, that many kernels, flush, ... A point whose launch cannot be
// captured is collected alone. Before each pass (outside the counted ranges) every point's outputs
// are poisoned and its inputs restored again.
//
// DRAM writes: a kernel's stores stay in L2 as dirty lines and reach DRAM later, mostly after
// the kernel ends (lab 04's aos_float3 at 2^24: 23 MB of its 401 MB). The next flush writes
// them back, so the flush range after a point holds the rest of that point's DRAM writes
// (the flush itself writes nothing); they are added to the point, and a last flush closes
// the pass.
#pragma once

#include "cudalab/l2_flush.hpp"
#include "cudalab/result_row.hpp"
#include "cudalab/run_request.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cudalab {

class counter_batch {
 public:
  // Opens the session (or records why counters are unavailable). memory_budget: the device
  // bytes the waiting points may hold together.
  counter_batch(const run_request& request, std::size_t memory_budget);

  // Whether counters will be collected for variant v; false leaves the reason in `cell`.
  bool wants(const variant& v, counter_cell& cell) const;
  // Queues a point (rows[row]) whose timing and verification are done; collects first when it
  // would not fit. `bytes`: its device memory (v.device_bytes), or nullopt when unknown (then
  // it is collected alone).
  void add(std::vector<result_row>& rows, std::size_t row, const variant& v,
           std::unique_ptr<prepared_variant> prepared, std::optional<std::size_t> bytes,
           cudaStream_t stream);
  // Collects every queued point and fills its row's counters.
  void collect(std::vector<result_row>& rows, cudaStream_t stream);

 private:
  struct pending {
    std::size_t row;
    const variant* which;
    std::unique_ptr<prepared_variant> prepared;
    std::size_t bytes;
    std::optional<std::size_t> kernels;  // per launch; nullopt: unknown, collected alone
    std::uint64_t variation = 0;         // the inputs the last pass launched on
  };
  // Before a pass: each point prepared afresh under a new input variation.
  void prepare_fresh_inputs(std::vector<result_row>& rows, std::vector<pending>& points,
                            cudaStream_t stream);
  // After the passes: each point's last launch verified on its own inputs.
  void verify_counted_launches(std::vector<result_row>& rows, std::vector<pending>& points,
                               cudaStream_t stream);
  void collect_together(std::vector<result_row>& rows, std::vector<pending>& points,
                        cudaStream_t stream);
  void mark_unavailable(std::vector<result_row>& rows, std::vector<pending>& points);

  std::string m_lab_id;
  std::function<void(const std::string&)> m_progress;
  bool m_fresh_inputs = false;
  std::unique_ptr<counter_session> m_session;
  std::map<std::string, std::string> m_missing;  // metrics this chip lacks, for every cell
  std::unique_ptr<l2_flush> m_flush;
  std::string m_reason;
  std::size_t m_budget = 0;
  std::size_t m_bytes = 0;
  std::size_t m_ranges = 0;  // of the queued points, with the closing flush if any
  std::vector<pending> m_pending;
};

}  // namespace cudalab
