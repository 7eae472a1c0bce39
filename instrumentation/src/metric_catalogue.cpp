// The metric catalogue: every metric cudalab names, one entry each. An entry carries the GH100
// CUPTI name (each checked against ncu's list for gh100 and configured offline for every chip
// by the CPU tests), what a learner reads (column header, unit, meaning), the sets it is in,
// how far a test may trust it (docs/counters.md), the model's prediction it is held to, and
// whether the memory tracer measures it. Adding a metric is adding an entry here (and a test).
#include "cudalab/metrics.hpp"
#include "cudalab/model/access_model.hpp"

#include <cstdint>
#include <initializer_list>
#include <utility>

namespace cudalab {
namespace {

using x = metric_exactness;
using model::access_counts;

// The model's readings: a count of its own, or of its instruction walk where the lab has one.
template <std::uint64_t access_counts::*field>
std::optional<double> count_of(const access_counts& c) {
  return static_cast<double>(c.*field);
}
template <std::uint64_t model::sass::instruction_counts::*field>
std::optional<double> instructions_of(const access_counts& c) {
  if (!c.instructions) return std::nullopt;
  return static_cast<double>((*c.instructions).*field);
}
template <std::uint64_t model::constant_cache_counts::*field>
std::optional<double> constant_cache_of(const access_counts& c) {
  if (!c.constant_cache) return std::nullopt;
  return static_cast<double>((*c.constant_cache).*field);
}
std::optional<double> threads_per_instruction(const access_counts& c) {
  if (!c.instructions) return std::nullopt;
  return c.instructions->threads_per_instruction();
}
std::optional<double> branch_uniformity(const access_counts& c) {
  if (!c.instructions) return std::nullopt;
  return c.instructions->branch_uniformity_pct();
}
// The counter counts predicated-off LDS too: only a model whose kernels issue none predicts it.
std::optional<double> shared_ld_instructions(const access_counts& c) {
  if (!c.shared_ld_inst_exact) return std::nullopt;
  return static_cast<double>(c.shared_ld_instructions);
}

// One entry, written field by field so that each line says what it sets.
class entry {
 public:
  entry(std::string short_name, std::string cupti_name, std::string unit, std::string meaning) {
    m.short_name = std::move(short_name);
    m.cupti_name = std::move(cupti_name);
    m.unit = std::move(unit);
    m.meaning = std::move(meaning);
  }
  entry& exactness(metric_exactness e) {
    m.exactness = e;
    return *this;
  }
  entry& header(std::string h) {
    m.header = std::move(h);
    return *this;
  }
  entry& in(std::initializer_list<const char*> sets) {
    m.sets.assign(sets.begin(), sets.end());
    return *this;
  }
  entry& missing_on(const std::vector<std::string>& chips) {
    m.missing_on = chips;
    return *this;
  }
  entry& derived_from(std::vector<metric_term> terms) {
    m.derived_from = std::move(terms);
    return *this;
  }
  entry& held_to(model_reading reading) {
    m.model = reading;
    return *this;
  }
  entry& traced() {
    m.traced = true;
    return *this;
  }
  operator metric_info() const { return m; }  // NOLINT: entries convert where the list is built

 private:
  metric_info m;
};

std::vector<metric_set> make_sets() {
  return {
      {"memory", "global loads and stores: requests and sectors (what a run collects by default)"},
      {"shared", "shared-memory instructions, wavefronts and bank conflicts, at the SASS level"},
      {"pipe", "shared wavefronts and conflicts as the L1 data stage counts them (never judged)"},
      {"classes", "every way an SM moves memory, by instruction class"},
      {"divergence", "threads per instruction, branches and instructions"},
      {"dram", "device-memory bytes and the reads L1 asked of L2"},
      {"local", "local memory: spills and arrays indexed at run time"},
      {"constant", "the indexed constant cache"},
  };
}

std::vector<metric_info> make_catalogue() {
  // Chips whose memory the profiler reads without dram__ counters (checked offline against every
  // chip CUPTI lists by catalogue_chips_test; docs/counters.md): the integrated GPUs (GA10B,
  // GB10B, GB20B) and the GDDR7 GeForce Blackwell chips (GB20x).
  const std::vector<std::string> no_dram_counters = {"GA10B", "GB10B", "GB202", "GB203",
                                                     "GB205", "GB206", "GB207", "GB20B"};
  // Chips whose profiler does not count HFMA2.MMA apart (CUPTI 13.0 configures it on GA100,
  // GA10B and GH100 only; catalogue_chips_test holds the list): there tensor_inst is missing.
  const std::vector<std::string> no_hfma2_count = {
      "AD102", "AD103", "AD104", "AD106", "AD107", "GA102", "GA103", "GA104", "GA106",
      "GA107", "GB100", "GB102", "GB10B", "GB110", "GB202", "GB203", "GB205", "GB206",
      "GB207", "GB20B", "GV100", "TU102", "TU104", "TU106", "TU116", "TU117"};
  // Chips before Hopper, which have no tensor memory accelerator and no clusters to count.
  const std::vector<std::string> before_hopper = {
      "AD102", "AD103", "AD104", "AD106", "AD107", "GA100", "GA102", "GA103", "GA104",
      "GA106", "GA107", "GA10B", "GV100", "TU102", "TU104", "TU106", "TU116", "TU117"};
  // Chips before Ampere, which have no LDGSTS (cp.async) instruction to count.
  const std::vector<std::string> no_ldgsts = {"GV100", "TU102", "TU104", "TU106", "TU116", "TU117"};
  // Volta, which has no LDSM (ldmatrix came with Turing); STSM came with Hopper.
  const std::vector<std::string> no_ldsm = {"GV100"};
  return {
      entry("ld_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "requests",
            "global load requests: one per warp-level load instruction with an active thread")
          .header("ld req")
          .in({"memory"})
          .held_to(count_of<&access_counts::global_ld_requests>)
          .traced(),
      entry("ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sectors",
            "32-byte sectors the global loads touched (4 per request when a warp reads 128 "
            "consecutive bytes)")
          .header("ld sect")
          .in({"memory"})
          .held_to(count_of<&access_counts::global_ld_sectors>)
          .traced(),
      entry("st_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "requests",
            "global store requests: one per warp-level store instruction with an active thread")
          .header("st req")
          .in({"memory"})
          .held_to(count_of<&access_counts::global_st_requests>)
          .traced(),
      entry("st_sectors", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sectors",
            "32-byte sectors the global stores touched")
          .header("st sect")
          .in({"memory"})
          .held_to(count_of<&access_counts::global_st_sectors>)
          .traced(),
      entry("ld_bytes", "smsp__sass_data_bytes_mem_global_op_ld.sum", "bytes",
            "bytes the active lanes of global loads asked for: the sectors they fill are the "
            "ideal"),
      entry("st_bytes", "smsp__sass_data_bytes_mem_global_op_st.sum", "bytes",
            "bytes the active lanes of global stores wrote"),
      entry("ld_bytes_per_sector",
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio", "bytes/sector",
            "useful bytes per loaded sector: 32 means no byte fetched in vain"),
      entry("st_bytes_per_sector",
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio", "bytes/sector",
            "useful bytes per stored sector: 32 means every written byte was asked for"),
      entry("global_ld_inst", "smsp__sass_inst_executed_op_global_ld.sum", "instructions",
            "global load instructions executed by warps (LDG and generic LD)")
          .in({"classes"}),
      entry("global_st_inst", "smsp__sass_inst_executed_op_global_st.sum", "instructions",
            "global store instructions executed by warps (STG and generic ST)")
          .in({"classes"}),
      // Every other way an SM moves memory, by instruction class (SASS level): what a grader must
      // see beside the LSU's global loads and stores.
      entry("global_atom_inst", "smsp__sass_inst_executed_op_global_atom.sum", "instructions",
            "global atomic instructions whose result is used (ATOM, ATOMG)")
          .in({"classes"}),
      entry("global_red_inst", "smsp__sass_inst_executed_op_global_red.sum", "instructions",
            "global reductions: atomics whose result is not used (REDG)")
          .in({"classes"}),
      entry("atom_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "requests",
            "global atomic requests: one per warp-level atomic instruction with an active thread"),
      entry("red_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "requests",
            "global reduction requests: one per warp-level reduction with an active thread"),
      entry("ldgsts_inst", "smsp__sass_inst_executed_op_ldgsts.sum", "instructions",
            "asynchronous copies from global to shared memory (LDGSTS, cp.async)")
          .in({"classes"})
          .missing_on(no_ldgsts),
      // The global side of those copies, at the SASS level: a cp.async is a global load that
      // the LSU's load counters above do not count, held to the same coalescing rule.
      // The L1's global load counters (ld_requests, ld_sectors) already count every LDGSTS,
      // through L1 or past it: measured on an H100, kernels whose only reads were 4-byte and
      // 16-byte (.cg) cp.async showed twice their sectors when these were added to them. The
      // SASS-level load bytes (ld_bytes) count none: these are their bytes.
      entry("ldgsts_bytes", "sm__sass_data_bytes_mem_global_op_ldgsts.sum", "bytes",
            "bytes the active lanes of LDGSTS (cp.async) asked for from global memory, which "
            "ld_bytes does not count")
          .missing_on(no_ldgsts),
      // What does the arithmetic: FP32 multiply-adds on the FMA pipes, or the tensor cores
      // (lab 08's lesson is the former; a wmma product would pass its other lines).
      entry("ffma_thread_inst", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
            "thread instructions",
            "FP32 fused multiply-adds (FFMA) executed, counted a thread each, predicated-off "
            "threads excluded")
          .in({"classes"}),
      // The tensor pipe also runs HFMA2.MMA, which the compiler issues in FP32 kernels to zero
      // or move registers (lab 08's FFMA kernels run tens of thousands): it is no tensor-core
      // arithmetic, so tensor_inst leaves it out.
      entry("tensor_pipe_inst", "smsp__inst_executed_pipe_tensor.sum", "instructions",
            "warp instructions the tensor pipe executed, HFMA2.MMA register moves included"),
      entry("hfma2_mma_inst", "smsp__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum",
            "instructions",
            "HFMA2.MMA warp instructions: FP16 FMAs on the tensor pipe, mostly register moves")
          .missing_on(no_hfma2_count),
      entry("tensor_inst", "", "instructions",
            "tensor-core arithmetic (HMMA, IMMA, DMMA, GMMA: wmma, mma, wgmma): the tensor pipe's "
            "instructions but HFMA2.MMA")
          .in({"classes"})
          .derived_from({{+1, "tensor_pipe_inst"}, {-1, "hfma2_mma_inst"}}),
      // Hopper's other movers: the tensor memory accelerator's bulk copies (UBLKCP, UTMALDG,
      // UTMASTG) and accesses to another block's shared memory in a cluster (distributed
      // shared memory). Neither is an LSU load or store, nor an LDS or STS of the block's own.
      entry("tma_inst", "smsp__inst_executed_pipe_tma.sum", "instructions",
            "warp instructions of the tensor memory accelerator (bulk and tensor copies: "
            "cp.async.bulk, TMA)")
          .in({"classes"})
          .missing_on(before_hopper),
      entry("dshared_inst", "smsp__sass_inst_executed_op_dshared.sum", "instructions",
            "warp instructions on another block's shared memory in a cluster (distributed "
            "shared memory)")
          .in({"classes"})
          .missing_on(before_hopper),
      entry("texture_inst", "smsp__sass_inst_executed_op_texture.sum", "instructions",
            "texture and surface instructions (reads through the texture path)")
          .in({"classes"}),
      // Generic LD/ST: an address the compiler could not place in a space (a pointer laundered
      // through inline assembly or a call it cannot see); the hardware resolves it per lane, so
      // a shared tile read this way issues no LDS and a global array no LDG.
      entry("generic_ld_inst", "smsp__inst_executed_op_generic_ld.sum", "instructions",
            "generic load instructions (LD: the address space found at run time)")
          .in({"classes"}),
      entry("generic_st_inst", "smsp__inst_executed_op_generic_st.sum", "instructions",
            "generic store instructions (ST: the address space found at run time)")
          .in({"classes"}),
      entry("shared_ld_inst", "smsp__inst_executed_op_shared_ld.sum", "instructions",
            "shared-memory load instructions (LDS), predicated-off ones included")
          .in({"shared", "classes"})
          .held_to(shared_ld_instructions),
      entry("shared_st_inst", "smsp__inst_executed_op_shared_st.sum", "instructions",
            "shared-memory store instructions (STS), predicated-off ones included")
          .in({"shared", "classes"}),
      entry("shared_atom_inst", "smsp__sass_inst_executed_op_shared_atom.sum", "instructions",
            "shared-memory atomic instructions (ATOMS)")
          .in({"classes"}),
      // Shared memory by the matrix instructions and surfaces by theirs: neither is an LDS, an
      // STS or a global access, so a kernel that moved a tile this way would escape the shared
      // and global lines.
      entry("ldsm_inst", "smsp__inst_executed_op_ldsm.sum", "instructions",
            "shared-memory matrix loads (LDSM, ldmatrix)")
          .in({"classes"})
          .missing_on(no_ldsm),
      entry("stsm_inst", "smsp__inst_executed_op_shared_stsm.sum", "instructions",
            "shared-memory matrix stores (STSM, stmatrix)")
          .in({"classes"})
          .missing_on(before_hopper),
      entry("surface_ld_inst", "smsp__inst_executed_op_surface_ld.sum", "instructions",
            "surface loads (SULD)")
          .in({"classes"}),
      entry("surface_st_inst", "smsp__inst_executed_op_surface_st.sum", "instructions",
            "surface stores (SUST)")
          .in({"classes"}),
      // Shared memory at the SASS level: CUPTI patches each LDS/STS to count the wavefronts
      // it asked of the data stage, so these depend on the addresses alone (docs/counters.md).
      entry("shared_ld_wavefronts",
            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "wavefronts",
            "passes of the shared-memory pipeline the load instructions needed (1 per LDS without "
            "conflicts), counted per instruction")
          .header("lds wavef")
          .in({"shared"})
          .held_to(count_of<&access_counts::shared_ld_wavefronts>)
          .traced(),
      entry("shared_st_wavefronts",
            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "wavefronts",
            "passes of the shared-memory pipeline the store instructions needed, counted per "
            "instruction")
          .header("sts wavef")
          .in({"shared"})
          .held_to(count_of<&access_counts::shared_st_wavefronts>)
          .traced(),
      entry(
          "shared_ld_conflicts", "", "conflicts",
          "shared load wavefronts beyond each instruction's ideal (bank conflicts): the SASS-level "
          "wavefronts minus the ideal the data stage counted")
          .header("lds confl")
          .in({"shared"})
          .derived_from(
              {{+1, "shared_ld_wavefronts"}, {-1, "pipe_ld_wavefronts"}, {+1, "pipe_ld_conflicts"}})
          .held_to(count_of<&access_counts::shared_ld_conflicts>)
          .traced(),
      entry("shared_st_conflicts", "", "conflicts",
            "shared store wavefronts beyond each instruction's ideal (bank conflicts): the "
            "SASS-level wavefronts minus the ideal the data stage counted")
          .header("sts confl")
          .in({"shared"})
          .derived_from(
              {{+1, "shared_st_wavefronts"}, {-1, "pipe_st_wavefronts"}, {+1, "pipe_st_conflicts"}})
          .held_to(count_of<&access_counts::shared_st_conflicts>)
          .traced(),
      // The same passes as the L1 data stage counts them: above the per-instruction count by an
      // excess that grows with size and occupancy, which it also counts as bank conflicts.
      entry(
          "pipe_ld_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "wavefronts",
          "shared load wavefronts as the L1 data stage counted them: the SASS-level count plus an "
          "excess that grows with size and occupancy")
          .exactness(x::tolerance)
          .in({"pipe"}),
      entry("pipe_st_wavefronts", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "wavefronts",
            "shared store wavefronts as the L1 data stage counted them (the excess included)")
          .exactness(x::tolerance)
          .in({"pipe"}),
      entry(
          "pipe_ld_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "conflicts",
          "the data stage's load wavefronts beyond its ideal: real bank conflicts plus its excess")
          .exactness(x::tolerance)
          .in({"pipe"}),
      entry(
          "pipe_st_conflicts", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
          "conflicts",
          "the data stage's store wavefronts beyond its ideal: real bank conflicts plus its excess")
          .exactness(x::tolerance)
          .in({"pipe"}),
      entry("thread_efficiency", "smsp__average_thread_inst_executed_per_inst_executed.ratio",
            "threads/instruction",
            "active threads per executed warp instruction (32 = no divergence)")
          .exactness(x::per_binary)
          .header("thr/inst")
          .in({"divergence"})
          .held_to(threads_per_instruction),
      entry("branch_uniformity", "smsp__sass_average_branch_targets_threads_uniform.pct", "%",
            "branch targets where all active threads of the warp went the same way (0 without "
            "branches)")
          .exactness(x::per_binary)
          .header("uniform%")
          .in({"divergence"})
          .held_to(branch_uniformity),
      entry("divergent_branches", "smsp__sass_branch_targets_threads_divergent.sum",
            "branch targets", "branch targets on which the active threads of a warp split")
          .exactness(x::per_binary)
          .header("div br")
          .in({"divergence"})
          .held_to(instructions_of<&model::sass::instruction_counts::divergent_branches>),
      entry("uniform_branches", "smsp__sass_branch_targets_threads_uniform.sum", "branch targets",
            "branch executions (BRA, CALL, RET) on which all active threads of the warp went the "
            "same way")
          .exactness(x::per_binary)
          .in({"divergence"})
          .held_to(instructions_of<&model::sass::instruction_counts::uniform_branches>),
      entry("instructions", "smsp__inst_executed.sum", "instructions",
            "warp instructions executed, all kinds")
          .exactness(x::per_binary)
          .in({"divergence"})
          .held_to(instructions_of<&model::sass::instruction_counts::warp_instructions>),
      entry("thread_instructions", "smsp__thread_inst_executed.sum", "instructions",
            "thread instructions: each warp instruction counted once per active lane "
            "(predicated-off lanes included)")
          .exactness(x::per_binary)
          .in({"divergence"})
          .held_to(instructions_of<&model::sass::instruction_counts::thread_instructions>),
      entry("blocks_launched", "sm__ctas_launched.sum", "blocks",
            "thread blocks the launches started, on every SM"),
      entry(
          "local_ld_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "requests",
          "local-memory load requests (LDL): one per warp-level instruction with an active thread")
          .in({"local"})
          .held_to(count_of<&access_counts::local_ld_requests>),
      entry("local_ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "sectors",
            "32-byte sectors the local loads touched (4 per request: lanes' words are interleaved)")
          .header("ldl sect")
          .in({"local"})
          .held_to(count_of<&access_counts::local_ld_sectors>),
      entry(
          "local_st_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "requests",
          "local-memory store requests (STL): one per warp-level instruction with an active thread")
          .in({"local"})
          .held_to(count_of<&access_counts::local_st_requests>),
      entry("local_st_sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", "sectors",
            "32-byte sectors the local stores touched (spills and run-time indexed arrays)")
          .header("stl sect")
          .in({"local"})
          .held_to(count_of<&access_counts::local_st_sectors>),
      entry("constant_requests", "idc__requests.sum", "requests",
            "requests to the indexed constant cache (LDC with a register address); at least one a "
            "warp-level LDC on the H100")
          .exactness(x::per_binary)
          .in({"constant"}),
      entry("constant_divergent_inst", "sm__idc_divergent_instructions.sum", "instructions",
            "constant loads whose lanes asked for more than one address; held to lab 02's model "
            "(equal on the H100 and the H200)")
          .exactness(x::per_binary)
          .in({"constant"})
          .held_to(constant_cache_of<&model::constant_cache_counts::divergent_instructions>),
      entry("constant_replays", "sm__idc_divergent_instruction_replays.sum", "replays",
            "extra constant-cache passes: one per distinct address beyond the first; held to "
            "lab 02's model (equal on the H100 and the H200)")
          .exactness(x::per_binary)
          .in({"constant"})
          .held_to(constant_cache_of<&model::constant_cache_counts::replays>),
      entry("dram_read_bytes", "dram__bytes_read.sum", "bytes",
            "bytes read from device memory (HBM); depends on what the caches already held")
          .exactness(x::tolerance)
          .in({"dram"})
          .missing_on(no_dram_counters),
      entry("dram_write_bytes", "dram__bytes_write.sum", "bytes",
            "bytes written to device memory (HBM)")
          .exactness(x::tolerance)
          .in({"dram"})
          .missing_on(no_dram_counters),
      entry("l2_sectors_from_l1", "lts__t_sectors_srcunit_tex_op_read.sum", "sectors",
            "sectors L1 requested from L2 for reads (equals ld_sectors only for pure streaming)")
          .exactness(x::tolerance)
          .in({"dram"}),
      entry("duration", "gpu__time_duration.sum", "ns", "kernel duration as the GPU measured it")
          .exactness(x::tolerance),
  };
}

}  // namespace

// Built on first use, so that no static initializer elsewhere can see it half made.
const std::vector<metric_info>& metric_catalogue() {
  static const std::vector<metric_info> catalogue = make_catalogue();
  return catalogue;
}

const std::vector<metric_set>& metric_sets() {
  static const std::vector<metric_set> sets = make_sets();
  return sets;
}

const std::vector<std::string>& chips_without_range_profiler() {
  static const std::vector<std::string> chips = {"GV11B"};
  return chips;
}

}  // namespace cudalab
