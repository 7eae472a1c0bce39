// Running a lab variant under compute-sanitizer in a child process, for `cudalab check 07`.
//
// The child is started with an argument vector (posix_spawn, no shell), its stdout and stderr
// go to a temporary file that is read back and removed, and the parent waits for it.
#pragma once

#include "cudalab/child_process.hpp"
#include "cudalab/lab.hpp"

#include "sanitizer_report.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace cudalab::labs {

// compute-sanitizer: $COMPUTE_SANITIZER, else on PATH, else /usr/local/cuda/bin. Empty when
// none is there.
std::string find_compute_sanitizer();
// One line saying where compute-sanitizer comes from, for the checker's hint.
std::string how_to_get_compute_sanitizer();

// The program the checker runs the variant in: $CUDALAB_CHECK_RUNNER, else this program (the
// cudalab tool, which takes `run <lab> --variant ...`).
std::string check_runner_program();

// Runs `argv` (argv[0] the program's path) and waits for it. Throws cudalab::error when it
// cannot be started.
child_result run_captured(const std::vector<std::string>& argv);

struct sanitized_run {
  std::string tool;  // "memcheck"
  child_result child;
  sanitizer_report report;
  // The variant's verification as the sanitized run wrote it (its JSON report); nullopt when it
  // wrote none (it did not finish).
  std::optional<verify_result> answer;
};

// compute-sanitizer --tool <tool> [--leak-check full for "leak"] <runner> run <lab> --variant
// <variant> --no-counters --warmup 0 --repeat 1 --size <size> --format json --output <file>;
// the file, read back and removed, gives the run's verification.
sanitized_run run_under_sanitizer(const std::string& sanitizer, const std::string& tool,
                                  const std::string& lab, const std::string& variant,
                                  std::size_t size);

}  // namespace cudalab::labs
