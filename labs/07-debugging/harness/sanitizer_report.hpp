// What compute-sanitizer said, read back from its text output.
//
// Every line the tool prints starts with "========= ". A report opens with a line at that
// prefix alone ("Invalid __global__ write of size 4 bytes", "Error: Race reported between ...",
// "Barrier error detected. Divergent thread(s) in warp", "Uninitialized __global__ memory read
// of size 4 bytes", "Leaked 1,024 bytes at 0x...", "Program hit cudaErrorInvalidValue ...") and
// goes on in indented lines ("    at kernel(...)+0x90 in file.cu:30", "    by thread (35,0,0) in
// block (3906,0,0)", "    Address 0x... is out of bounds"). The run ends with
// "ERROR SUMMARY: N errors" (racecheck also prints "RACECHECK SUMMARY: N hazards displayed
// (E errors, W warnings)"). docs/debugging.md shows whole reports.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab::labs {

struct sanitizer_finding {
  std::string kind;      // the opening line: "Invalid __global__ write of size 4 bytes"
  std::string kernel;    // "ramp_unguarded_kernel", without its arguments; "" for host reports
  std::string location;  // "memory_bugs.cu:30" (-lineinfo), or ""
  std::string thread;    // "(35,0,0)"
  std::string block;     // "(3906,0,0)"
  std::string address;   // "0x7f3c2e3d0a0c"
};

struct sanitizer_report {
  std::vector<sanitizer_finding> findings;
  std::optional<std::size_t> error_summary;  // "ERROR SUMMARY: N errors"; none: the run died
  bool device_unsupported = false;           // "Device not supported"
  // Errors by the summary, or the findings counted where the summary is missing.
  std::size_t errors() const { return error_summary ? *error_summary : findings.size(); }
};

sanitizer_report parse_sanitizer_output(std::string_view text);

// One kind of finding: how often it was reported and the first report.
struct finding_group {
  std::string kind;
  std::size_t count = 0;
  sanitizer_finding first;
};
// The findings grouped by kind (racecheck's "Race reported between Write access ... and Read
// access" and memcheck's "of size N bytes" keep their words; addresses never split a group),
// in order of first appearance.
std::vector<finding_group> group_findings(const sanitizer_report& report);

// "Invalid __global__ write of size 4 bytes: 35 times, first in ramp_unguarded_kernel at
// memory_bugs.cu:30, thread (35,0,0) block (3906,0,0), address 0x7f3c2e3d0a0c".
std::string describe(const finding_group& group);

}  // namespace cudalab::labs
