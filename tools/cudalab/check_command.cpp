// `cudalab check <lab>`: grades the learner's exercise kernel from the current build by its
// verification and its hardware counters against the lab's fixed variants. It builds nothing:
// rebuild (cmake --build build/release) after editing labs/NN-name/exercise.cu.
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device.hpp"
#include "cudalab/grade.hpp"
#include "cudalab/lab.hpp"

#include <iostream>

namespace cudalab::tool {

int check_command(const args& a) {
  po::options_description options("check options");
  std::string device_text = "0";
  options.add_options()("lab", po::value<std::string>(), "the lab whose exercise to grade")(
      "device,d", po::value(&device_text), "CUDA device index (default 0)");
  po::positional_options_description positional;
  positional.add("lab", 1);
  po::variables_map vm;
  if (!parse_options(a, "cudalab check <lab>", options, positional, vm)) return exit_ok;
  if (!vm.count("lab")) throw usage_error("check needs a lab: cudalab check 04-coalescing");
  const lab* l = &lab_named(vm["lab"].as<std::string>());
  if (!l->exercise) throw usage_error(l->id + " has no exercise to check");
  const int device = parse_int_option("--device", device_text, 0, 1 << 20);

  std::string why;
  if (cuda_device_count(&why) == 0) throw no_device_error(why);
  const grade_outcome outcome = grade_exercise(*l, device);
  std::cout << "cudalab check " << l->id << ": " << l->exercise->file << "\n";
  for (const auto& line : outcome.report.lines) std::cout << "  " << line << "\n";
  std::cout << (outcome.report.passed ? "PASS" : "FAIL") << "\n";
  if (!outcome.report.passed && !outcome.report.hint.empty())
    std::cout << "hint: " << outcome.report.hint << "\n";
  return outcome.report.passed ? exit_ok : exit_failure;
}

}  // namespace cudalab::tool
