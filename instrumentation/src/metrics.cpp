// The metric catalogue: short names a learner types, the GH100 CUPTI names behind them
// (each checked against ncu's list for gh100 and configured offline by the CPU tests), what
// they count and whether a test may assert them exactly (docs/counters.md).
//
// resolve_metrics() turns "--metrics memory" or "ld_sectors,dram__bytes_read.sum" into CUPTI
// names before anything runs: a typo is a usage_error naming the closest short names.
#include "cudalab/metrics.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

#include <algorithm>
#include <map>

namespace cudalab {
namespace {

using x = metric_exactness;

// Chips whose memory the profiler reads without dram__ counters (checked offline against every
// chip CUPTI lists by catalogue_chips_test; docs/counters.md): the integrated GPUs (GA10B,
// GB10B, GB20B) and the GDDR7 GeForce Blackwell chips (GB20x).
const std::vector<std::string> no_dram_counters = {"GA10B", "GB10B", "GB202", "GB203",
                                                   "GB205", "GB206", "GB207", "GB20B"};
// Chips before Ampere, which have no LDGSTS (cp.async) instruction to count.
const std::vector<std::string> no_ldgsts = {"GV100", "TU102", "TU104", "TU106", "TU116", "TU117"};

const std::vector<metric_info> catalogue = {
    {"ld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "requests",
     "global load requests: one per warp-level load instruction with an active thread", x::exact},
    {"ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sectors",
     "32-byte sectors the global loads touched (4 per request when a warp reads 128 "
     "consecutive bytes)",
     x::exact},
    {"st_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "requests",
     "global store requests: one per warp-level store instruction with an active thread", x::exact},
    {"st_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sectors",
     "32-byte sectors the global stores touched", x::exact},
    {"ld_bytes_per_sector", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio",
     "bytes/sector", "useful bytes per loaded sector: 32 means no byte fetched in vain", x::exact},
    {"st_bytes_per_sector", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio",
     "bytes/sector", "useful bytes per stored sector: 32 means every written byte was asked for",
     x::exact},
    {"global_ld_inst", "smsp__sass_inst_executed_op_global_ld.sum", "instructions",
     "global load instructions executed by warps (LDG and generic LD)", x::exact},
    {"global_st_inst", "smsp__sass_inst_executed_op_global_st.sum", "instructions",
     "global store instructions executed by warps (STG and generic ST)", x::exact},
    // Every other way an SM moves memory, by instruction class (SASS level): what a grader must
    // see beside the LSU's global loads and stores.
    {"global_atom_inst", "smsp__sass_inst_executed_op_global_atom.sum", "instructions",
     "global atomic instructions whose result is used (ATOM, ATOMG)", x::exact},
    {"global_red_inst", "smsp__sass_inst_executed_op_global_red.sum", "instructions",
     "global reductions: atomics whose result is not used (REDG)", x::exact},
    {"ldgsts_inst", "smsp__sass_inst_executed_op_ldgsts.sum", "instructions",
     "asynchronous copies from global to shared memory (LDGSTS, cp.async)", x::exact, no_ldgsts},
    {"texture_inst", "smsp__sass_inst_executed_op_texture.sum", "instructions",
     "texture and surface instructions (reads through the texture path)", x::exact},
    {"shared_atom_inst", "smsp__sass_inst_executed_op_shared_atom.sum", "instructions",
     "shared-memory atomic instructions (ATOMS)", x::exact},
    {"shared_ld_inst", "smsp__inst_executed_op_shared_ld.sum", "instructions",
     "shared-memory load instructions (LDS), predicated-off ones included", x::exact},
    {"shared_st_inst", "smsp__inst_executed_op_shared_st.sum", "instructions",
     "shared-memory store instructions (STS), predicated-off ones included", x::exact},
    // Shared memory at the SASS level: CUPTI patches each LDS/STS to count the wavefronts
    // it asked of the data stage, so these depend on the addresses alone (docs/counters.md).
    {"shared_ld_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
     "wavefronts",
     "passes of the shared-memory pipeline the load instructions needed (1 per LDS without "
     "conflicts), counted per instruction",
     x::exact},
    {"shared_st_wavefronts", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
     "wavefronts",
     "passes of the shared-memory pipeline the store instructions needed, counted per instruction",
     x::exact},
    {"shared_ld_conflicts",
     "",
     "conflicts",
     "shared load wavefronts beyond each instruction's ideal (bank conflicts): the SASS-level "
     "wavefronts minus the ideal the data stage counted",
     x::exact,
     {},
     {{+1, "shared_ld_wavefronts"}, {-1, "pipe_ld_wavefronts"}, {+1, "pipe_ld_conflicts"}}},
    {"shared_st_conflicts",
     "",
     "conflicts",
     "shared store wavefronts beyond each instruction's ideal (bank conflicts): the SASS-level "
     "wavefronts minus the ideal the data stage counted",
     x::exact,
     {},
     {{+1, "shared_st_wavefronts"}, {-1, "pipe_st_wavefronts"}, {+1, "pipe_st_conflicts"}}},
    // The same passes as the L1 data stage counts them: above the per-instruction count by an
    // excess that grows with size and occupancy, which it also counts as bank conflicts.
    {"pipe_ld_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "wavefronts",
     "shared load wavefronts as the L1 data stage counted them: the SASS-level count plus an "
     "excess that grows with size and occupancy",
     x::tolerance},
    {"pipe_st_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "wavefronts",
     "shared store wavefronts as the L1 data stage counted them (the excess included)",
     x::tolerance},
    {"pipe_ld_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "conflicts",
     "the data stage's load wavefronts beyond its ideal: real bank conflicts plus its excess",
     x::tolerance},
    {"pipe_st_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "conflicts",
     "the data stage's store wavefronts beyond its ideal: real bank conflicts plus its excess",
     x::tolerance},
    {"thread_efficiency", "smsp__average_thread_inst_executed_per_inst_executed.ratio",
     "threads/instruction", "active threads per executed warp instruction (32 = no divergence)",
     x::per_binary},
    {"branch_uniformity", "smsp__sass_average_branch_targets_threads_uniform.pct", "%",
     "branch targets where all active threads of the warp went the same way (0 without "
     "branches)",
     x::per_binary},
    {"divergent_branches", "smsp__sass_branch_targets_threads_divergent.sum", "branch targets",
     "branch targets on which the active threads of a warp split", x::per_binary},
    {"instructions", "smsp__inst_executed.sum", "instructions",
     "warp instructions executed, all kinds", x::per_binary},
    {"thread_instructions", "smsp__thread_inst_executed.sum", "instructions",
     "thread instructions: each warp instruction counted once per active lane (predicated-off "
     "lanes included)",
     x::per_binary},
    {"uniform_branches", "smsp__sass_branch_targets_threads_uniform.sum", "branch targets",
     "branch executions (BRA, CALL, RET) on which all active threads of the warp went the same way",
     x::per_binary},
    {"local_ld_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "requests",
     "local-memory load requests (LDL): one per warp-level instruction with an active thread",
     x::exact},
    {"local_st_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "requests",
     "local-memory store requests (STL): one per warp-level instruction with an active thread",
     x::exact},
    {"local_ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "sectors",
     "32-byte sectors the local loads touched (4 per request: lanes' words are interleaved)",
     x::exact},
    {"local_st_sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "sectors",
     "32-byte sectors the local stores touched (spills and run-time indexed arrays)", x::exact},
    {"constant_requests", "idc__requests.sum", "requests",
     "requests to the indexed constant cache (LDC with a register address); at least one a "
     "warp-level LDC on the H100",
     x::per_binary},
    {"constant_divergent_inst", "sm__idc_divergent_instructions.sum", "instructions",
     "constant loads whose lanes asked for more than one address; equal to lab 02's model on the "
     "H100",
     x::per_binary},
    {"constant_replays", "sm__idc_divergent_instruction_replays.sum", "replays",
     "extra constant-cache passes: one per distinct address beyond the first; equal to lab 02's "
     "model on the H100",
     x::per_binary},
    {"dram_read_bytes", "dram__bytes_read.sum", "bytes",
     "bytes read from device memory (HBM); depends on what the caches already held", x::tolerance,
     no_dram_counters},
    {"dram_write_bytes", "dram__bytes_write.sum", "bytes", "bytes written to device memory (HBM)",
     x::tolerance, no_dram_counters},
    {"l2_sectors_from_l1", "lts__t_sectors_srcunit_tex_op_read.sum", "sectors",
     "sectors L1 requested from L2 for reads (equals ld_sectors only for pure streaming)",
     x::tolerance},
    {"duration", "gpu__time_duration.sum", "ns", "kernel duration as the GPU measured it",
     x::tolerance},
};

const std::map<std::string, std::vector<std::string>, std::less<>> sets = {
    {"memory", {"ld_requests", "ld_sectors", "st_requests", "st_sectors"}},
    {"shared",
     {"shared_ld_inst", "shared_st_inst", "shared_ld_wavefronts", "shared_st_wavefronts",
      "shared_ld_conflicts", "shared_st_conflicts"}},
    {"pipe",
     {"pipe_ld_wavefronts", "pipe_st_wavefronts", "pipe_ld_conflicts", "pipe_st_conflicts"}},
    {"classes",
     {"global_ld_inst", "global_st_inst", "global_atom_inst", "global_red_inst", "ldgsts_inst",
      "texture_inst", "shared_ld_inst", "shared_st_inst", "shared_atom_inst"}},
    {"divergence",
     {"thread_efficiency", "branch_uniformity", "divergent_branches", "uniform_branches",
      "instructions", "thread_instructions"}},
    {"dram", {"dram_read_bytes", "dram_write_bytes", "l2_sectors_from_l1"}},
    {"local", {"local_ld_requests", "local_ld_sectors", "local_st_requests", "local_st_sectors"}},
    {"constant", {"constant_requests", "constant_divergent_inst", "constant_replays"}},
};

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Up to three known names within a third of the typed name's length and at most two edits
// further than the best match.
std::vector<std::string> close_matches(std::string_view name) {
  const bool cupti_like = name.find("__") != std::string_view::npos;
  std::vector<std::pair<std::size_t, std::string>> scored;
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  auto consider = [&](const std::string& candidate) {
    const std::size_t d = edit_distance(name, candidate);
    if (d <= limit) scored.emplace_back(d, candidate);
  };
  for (const auto& m : catalogue)
    if (!cupti_like || !m.derived()) consider(cupti_like ? m.cupti_name : m.short_name);
  if (!cupti_like)
    for (const auto& [set, members] : sets) consider(set);
  if (!cupti_like) consider("all");
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < 3; ++i)
    if (scored[i].first <= scored.front().first + 2) out.push_back(scored[i].second);
  return out;
}

bool is_identifier(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// A CUPTI metric: unit__counter, a rollup (.sum .avg .min .max .ratio .pct .max_rate) and at
// most one submetric (.per_second, .pct_of_peak_sustained_elapsed, ...).
bool looks_like_cupti_metric(std::string_view name) {
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view base = name.substr(0, dot);
  const std::size_t sep = base.find("__");
  if (sep == 0 || sep == std::string_view::npos || sep + 2 >= base.size() || !is_identifier(base))
    return false;
  std::string_view rest = name.substr(dot + 1);
  const std::size_t dot2 = rest.find('.');
  const std::string_view rollup = rest.substr(0, dot2);
  static const char* const rollups[] = {"sum", "avg", "min", "max", "ratio", "pct", "max_rate"};
  if (std::none_of(std::begin(rollups), std::end(rollups),
                   [&](const char* r) { return rollup == r; }))
    return false;
  if (dot2 == std::string_view::npos) return true;
  return is_identifier(rest.substr(dot2 + 1));
}

[[noreturn]] void unknown_metric(const std::string& name) {
  std::string message = "unknown metric '" + shown(name) + "'";
  if (name.find("__") != std::string::npos && name.find('.') == std::string::npos) {
    throw usage_error(message + ": a CUPTI metric needs a rollup suffix such as " + shown(name) +
                          ".sum, .avg, .max, .ratio or .pct",
                      "`cudalab metrics` lists the catalogue and the sets");
  }
  const std::vector<std::string> close = close_matches(name);
  if (!close.empty()) {
    message += ": did you mean ";
    for (std::size_t i = 0; i < close.size(); ++i) message += (i ? ", " : "") + close[i];
    message += "?";
  }
  throw usage_error(message,
                    "`cudalab metrics` lists the catalogue and the sets (memory, "
                    "shared, pipe, classes, divergence, dram, local, constant, all)");
}

}  // namespace

std::string_view to_string(metric_exactness e) {
  switch (e) {
    case metric_exactness::exact:
      return "exact";
    case metric_exactness::per_binary:
      return "per-binary";
    case metric_exactness::tolerance:
      return "tolerance";
  }
  return "tolerance";
}

const std::vector<metric_info>& metric_catalogue() { return catalogue; }

const std::vector<std::string>& chips_without_range_profiler() {
  static const std::vector<std::string> chips = {"GV11B"};
  return chips;
}

bool lacks_metric(std::string_view chip, std::string_view cupti_name) {
  const metric_info* m = find_metric(cupti_name);
  return m && std::find(m->missing_on.begin(), m->missing_on.end(), chip) != m->missing_on.end();
}

const metric_info* find_metric(std::string_view name) {
  if (name.empty()) return nullptr;
  for (const auto& m : catalogue)
    if (m.short_name == name || m.cupti_name == name) return &m;
  return nullptr;
}

std::string metric_info::source() const {
  if (!derived()) return cupti_name;
  std::string text;
  for (const auto& term : derived_from)
    text +=
        (text.empty() ? (term.sign < 0 ? "-" : "") : (term.sign < 0 ? " - " : " + ")) + term.metric;
  return text;
}

std::vector<std::string> metric_set_names() {
  return {"memory", "shared", "pipe", "classes", "divergence", "dram", "local", "constant", "all"};
}

std::vector<std::string> resolve_metrics(std::string_view spec, std::string_view option) {
  std::vector<std::string> out;
  auto add_cupti = [&out](const std::string& cupti) {
    if (std::find(out.begin(), out.end(), cupti) == out.end()) out.push_back(cupti);
  };
  // A derived metric collects its terms (counted metrics: the catalogue never nests them).
  auto add = [&add_cupti](const metric_info& m) {
    if (!m.derived()) return add_cupti(m.cupti_name);
    for (const auto& term : m.derived_from) add_cupti(find_metric(term.metric)->cupti_name);
  };
  for (const std::string& name : split_list(option, spec)) {
    if (name == "all") {
      for (const auto& m : catalogue) add(m);
    } else if (const auto set = sets.find(name); set != sets.end()) {
      for (const auto& member : set->second) add(*find_metric(member));
    } else if (const metric_info* m = find_metric(name)) {
      add(*m);
    } else if (looks_like_cupti_metric(name)) {
      add_cupti(name);  // checked against the chip when the session configures it
    } else {
      unknown_metric(name);
    }
  }
  return out;
}

std::string display_name(std::string_view cupti_name) {
  if (const metric_info* m = find_metric(cupti_name)) return m->short_name;
  return std::string(cupti_name);
}

namespace {

std::optional<double> derived_value(const std::map<std::string, double>& totals,
                                    const metric_info& m) {
  double value = 0;
  for (const auto& term : m.derived_from) {
    const auto it = totals.find(find_metric(term.metric)->cupti_name);
    if (it == totals.end()) return std::nullopt;
    value += term.sign * it->second;
  }
  return value;
}

}  // namespace

void add_derived_metrics(std::map<std::string, double>& totals) {
  for (const auto& m : catalogue)
    if (m.derived())
      if (const auto value = derived_value(totals, m)) totals[m.key()] = *value;
}

std::optional<double> metric_value(const std::map<std::string, double>& totals,
                                   std::string_view metric) {
  const metric_info* m = find_metric(metric);
  const auto it = totals.find(m ? m->key() : std::string(metric));
  if (it != totals.end()) return it->second;
  if (m && m->derived()) return derived_value(totals, *m);
  return std::nullopt;
}

}  // namespace cudalab
