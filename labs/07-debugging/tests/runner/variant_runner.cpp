// The program lab 07's checker runs under compute-sanitizer in the test builds, where the
// running program is a test binary rather than the cudalab tool. It takes the tool's arguments
// (`run <lab> --variant V --no-counters --warmup 0 --repeat 1 --size N`), runs that one variant
// of this build's lab 07 once, without counters, and prints its verification. Only --variant
// and --size matter; the rest are the checker's fixed choices.
#include "debugging_lab.hpp"

#include "cudalab/check.hpp"
#include "cudalab/runner.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

int main(int argc, char** argv) try {
  std::string variant;
  std::size_t size = cudalab::labs::debugging_default_size;
  for (int i = 1; i + 1 < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--variant")
      variant = argv[++i];
    else if (arg == "--size")
      size = std::stoull(argv[++i]);
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
  std::cout << variant << ": " << (rows.front().verification.ok ? "ok" : "FAIL") << " ("
            << rows.front().verification.detail << ")\n";
  return 0;
} catch (const std::exception& e) {
  std::cerr << "variant_runner: " << e.what() << "\n";
  return 1;
}
