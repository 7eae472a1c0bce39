// What the tracer reports for one traced launch, as the injection library writes it (one JSON
// object a line in the file named by CUDALAB_TRACE_OUTPUT) and the runner reads it back.
//
// A line:
//   {"label": "aos_float3|1048576|256|0", "kernel": "<mangled name>", "cubin": "<file>",
//    "function_pc": 140..., "function_size": 1536, "dropped": 0, ["launches": 7,]
//    ["grid": [32, 32, 1], "block": [32, 32, 1], "nvtx": "train/step", "nanoseconds": 5120,]
//    ["range_counts": {"dram_read_bytes": 4194304, "local_ld_requests": 0, ...},]
//    "pcs": [{"offset": 208, "space": "global", "kind": "load", "width": 4,
//             "instructions": 32768, "sectors": 393216, "bytes": 4194304,
//             "wavefronts": 0, "ideal": 0}, ...]}
// or, when the launch could not be traced: {"label": ..., "kernel": ..., "error": "<why>"}.
#pragma once

#include "cudalab/model/access_model.hpp"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cudalab::trace {

enum class traced_kind { load, store, atomic };

// The totals of one instruction (one pc) over a launch.
struct traced_pc {
  std::uint64_t offset = 0;  // from the start of the kernel's code
  model::memory_space space = model::memory_space::global;
  traced_kind kind = traced_kind::load;
  unsigned width = 4;
  std::uint64_t instructions = 0;  // warp-level accesses: requests, for global memory
  std::uint64_t sectors = 0;
  std::uint64_t bytes = 0;
  std::uint64_t wavefronts = 0;
  std::uint64_t ideal = 0;
  std::uint64_t conflicts() const { return wavefronts - ideal; }
};

struct traced_launch {
  std::string label;   // the runner's point (trace_point_label)
  std::string kernel;  // as the driver names it (mangled)
  std::string cubin;   // the module's code, saved for --lines; empty if not saved
  std::uint64_t function_pc = 0;
  std::uint64_t function_size = 0;
  std::uint64_t dropped = 0;  // accesses lost to a full table: the counts are then incomplete
  std::string error;          // why the launch was not traced; empty when it was
  std::vector<traced_pc> pcs;
  // The launches the counts cover: 1 for the tracer (a line a launch); the SASS metrics' line of
  // a kernel function sums every launch of it in the measured range.
  std::uint64_t launches = 1;
  // The launch's grid and block (x, y, z), as the tracer saw it begin; all 0 where not known
  // (the SASS metrics' line sums launches that may differ).
  std::array<unsigned, 3> grid{0, 0, 0};
  std::array<unsigned, 3> block{0, 0, 0};
  bool shape_known() const { return grid[0] != 0; }
  // The NVTX push/pop ranges the launching thread had open, outermost first, joined by '/'
  // ("train/step"); empty when none (or no NVTX tool was loaded). Written by `cudalab profile`'s
  // witnesses, which are the program's NVTX tool too (injection/nvtx_ranges.hpp).
  std::string nvtx;
  // The launch's GPU time from CUPTI's activity records, in a run that patched no code
  // (instrumentation/kernel_times); 0 where not timed.
  std::uint64_t nanoseconds = 0;
  // The launch's counts under CUPTI's Range Profiler (instrumentation/launch_counters): a value
  // for each column of launch_counters.hpp, by column; empty where not counted.
  std::map<std::string, std::uint64_t> range_counts;
};

// The label the runner gives a point, so that a trace read in another process finds its row.
std::string trace_point_label(const std::string& variant, std::size_t size, int block, long param);

// One line of the trace file; throws cudalab::error naming what is malformed.
traced_launch parse_traced_launch(const std::string& line);
// Every line of `path` (empty lines skipped); none when the file does not exist (no launch was
// traced); throws cudalab::error when it exists but cannot be read.
// `from`: the byte to start at (a file that a longer-lived tracer appends to, read in parts).
std::vector<traced_launch> read_trace_file(const std::string& path, std::uintmax_t from = 0);
// The file's size now (0 when it does not exist): where the next read_trace_file starts.
std::uintmax_t trace_file_end(const std::string& path);
// One traced_launch as a line (no newline): what the injection library writes.
std::string format_traced_launch(const traced_launch& launch);

// The launches' totals as the access model counts them (global loads and stores, shared
// accesses; atomics are left out, as the model leaves them out).
model::access_counts traced_counts(const std::vector<traced_launch>& launches);

}  // namespace cudalab::trace
