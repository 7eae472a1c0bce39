// The program lab 07's checker runs under compute-sanitizer in the test builds, where the
// running program is a test binary rather than the cudalab tool. It takes the tool's arguments
// (`run <lab> --variant V --no-counters --warmup 0 --repeat 1 --size N`), runs that one variant
// of this build's lab 07 once, without counters, and prints its verification; with --output it
// also writes it where the tool's JSON report has it ({"rows": [{"variant", "verified",
// "verify_detail"}]}). Only --variant, --size and --output matter; the rest are the checker's
// fixed choices.
#include "debugging_lab.hpp"

#include "cudalab/check.hpp"
#include "cudalab/runner.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) try {
  std::string variant, output;
  std::size_t size = cudalab::labs::debugging_default_size;
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--variant")
      variant = argv[++i];
    else if (arg == "--size")
      size = std::stoull(argv[++i]);
    else if (arg == "--output")
      output = argv[++i];
  }
  const cudalab::lab l = cudalab::labs::make_lab_07_debugging();
  const cudalab::variant* v = l.find(variant);
  if (!v) {
    std::cerr << "variant_runner: unknown variant '" << variant << "' of " << l.id << "\n";
    return 2;
  }
  cudalab::run_request request;
  request.which = &l;
  request.variants = {v};
  request.sizes = {size};
  request.warmup = 0;
  request.repeat = 1;
  request.counters = false;
  const auto rows = cudalab::run_lab(request);
  const cudalab::verify_result& answer = rows.front().verification;
  std::cout << variant << ": " << (answer.ok ? "ok" : "FAIL") << " (" << answer.detail << ")\n";
  if (!output.empty()) {
    const nlohmann::json row = {{"variant", variant},
                                {"verified", answer.ok ? "ok" : "FAIL"},
                                {"verify_detail", answer.detail}};
    std::ofstream(output) << nlohmann::json{{"rows", {row}}}.dump(2) << "\n";
  }
  return 0;
} catch (const std::exception& e) {
  std::cerr << "variant_runner: " << e.what() << "\n";
  return 1;
}
