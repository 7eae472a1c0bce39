// The subcommands of the cudalab tool. Each takes the arguments after its name and returns
// the process exit code (see exit_codes below); errors are thrown and reported by main().
#pragma once

#include <string>
#include <vector>

namespace cudalab::tool {

// Documented exit codes (README, `cudalab --help`).
enum exit_code : int {
  exit_ok = 0,
  exit_failure = 1,   // a CUDA/CUPTI error, or a variant that must verify did not
  exit_usage = 2,     // bad input: unknown lab, bad --size, ...
  exit_no_gpu = 3,    // no usable CUDA device (predictions were still printed)
  exit_mismatch = 4,  // hardware counters disagree with the access model
};

using args = std::vector<std::string>;

int list_command(const args& a);
int run_command(const args& a);
int device_command(const args& a);
int doctor_command(const args& a);
int metrics_command(const args& a);
int check_command(const args& a);
int profile_command(const args& a);

}  // namespace cudalab::tool
