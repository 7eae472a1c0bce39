// What `cudalab run` asks the runner for (runner.hpp): the lab, variants, sizes, blocks and
// sweep values, the counters, and where progress and notes go.
#pragma once

#include "cudalab/lab.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace cudalab {

// --sweep. A list under a sweep's name ("offset" -> 0,8,16) is that sweep's own; the list under
// "" (a bare `--sweep 0..32`) goes to every sweep variant, each taking the values inside its
// range. No values: each sweep's default points. full: every value of each sweep's range.
struct sweep_request {
  std::map<std::string, std::vector<long>> values;
  bool full = false;
  bool empty() const { return values.empty() && !full; }
};

// The parameter values variant `v` runs for `request`; {0} when it does not sweep. Throws
// usage_error for a named value outside the sweep's range or a bare list with none inside it.
// `dropped` (optional) receives the values of a bare list outside v's range.
std::vector<long> sweep_values(const variant& v, const sweep_request& request,
                               std::vector<long>* dropped = nullptr);

// CUDA's grid limits: x up to 2^31-1 blocks, y and z up to 65,535 (every GPU since sm_30, the
// H100 included: the limits assumed where no device is present).
struct grid_limits {
  std::uint64_t x = 2147483647u, y = 65535u, z = 65535u;
};

struct run_request {
  const lab* which = nullptr;
  std::vector<const variant*> variants;  // empty: every variant of the lab except exercises
  std::vector<std::size_t> sizes;        // empty: lab.default_size
  std::vector<int> blocks;               // empty: each variant's default_block
  sweep_request sweep;
  int warmup = 3;
  int repeat = 20;
  bool counters = true;
  // Each counter pass launches a point prepared afresh under a new input variation
  // (host_data.hpp), whose answer is then verified: a kernel cannot hand the counters an answer
  // it cached from an earlier launch (the grader's runs; counters of a plain run reuse the
  // timed point).
  bool fresh_inputs_for_counters = false;
  // Every warm-up and timed launch is verified, not only the last (the grader's runs): a launcher
  // that idles through some of the timed launches would otherwise lower the median unseen.
  bool verify_every_launch = false;
  std::vector<std::string> metrics;        // CUPTI names; empty: the lab's default set (memory)
  std::vector<std::string> extra_metrics;  // added to either (the checkers' own counters)
  int device = 0;
  bool gpu = true;  // false: predictions only (no device here)
  // Told what the run is doing ("timing 04-coalescing/soa (3 of 17)"), for a progress line.
  std::function<void(const std::string&)> progress;
  // Told of points the run leaves out (a variant above its max_size), one line each.
  std::function<void(const std::string&)> omitted;
  // Called once every point has passed the checks, before any work: notes that only an
  // accepted run should print.
  std::function<void()> accepted;
};

}  // namespace cudalab
