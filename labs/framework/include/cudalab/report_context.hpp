// What a report says about the run as a whole (report.hpp): the device, the copy roof, why
// counters are missing for every row, and the lab whose headline figures the table shows.
#pragma once

#include "cudalab/copy_roof.hpp"
#include "cudalab/lab.hpp"

#include <string>

namespace cudalab {

struct report_context {
  std::string device;         // "NVIDIA H100 80GB HBM3 (sm_90)"; empty without a GPU
  copy_roof roof;             // the %copy roof
  std::string counters_note;  // why counters are n/a for the whole run, if they are
  // The lab the rows come from: its headline figures and size unit for the default view.
  // nullptr: the default headline figures (sectors per request, DRAM over ideal).
  const lab* which = nullptr;
};

}  // namespace cudalab
