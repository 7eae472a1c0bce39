// What `cudalab profile` reads of each launch under CUPTI's Range Profiler (the injection library
// in instrumentation/launch_counters/, a run of its own where counters are permitted): what the
// witnesses cannot count. DRAM bytes, which depend on what the L2 held; local-memory requests and
// sectors (spills and arrays indexed at run time), which neither the tracer nor the SASS-level
// counters the profile takes see. One list, so that the library asks for what the report prints.
#pragma once

#include <array>

namespace cudalab::trace {

struct launch_counter {
  const char* column;  // the report's name: CSV column, JSON key
  const char* metric;  // the Range Profiler's metric, summed over a launch
};

inline constexpr std::array<launch_counter, 6> launch_counters{{
    {"dram_read_bytes", "dram__bytes_read.sum"},
    {"dram_write_bytes", "dram__bytes_write.sum"},
    {"local_ld_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"},
    {"local_ld_sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"},
    {"local_st_requests", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"},
    {"local_st_sectors", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"},
}};

}  // namespace cudalab::trace
