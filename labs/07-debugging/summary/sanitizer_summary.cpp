// cudalab_sanitizer_summary LOG...: what compute-sanitizer found in each log, one line a kind of
// finding (how often, and the first report's kernel, line, thread and address), for
// scripts/sanitize.sh. Exit 0; 2 for a log it cannot read.
#include "sanitizer_report.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: cudalab_sanitizer_summary LOG...\n";
    return 2;
  }
  for (int a = 1; a < argc; ++a) {
    std::ifstream in(argv[a]);
    if (!in) {
      std::cerr << "cudalab_sanitizer_summary: cannot read " << argv[a] << "\n";
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    const cudalab::labs::sanitizer_report r = cudalab::labs::parse_sanitizer_output(text.str());
    for (const auto& g : cudalab::labs::group_findings(r))
      std::cout << "    " << cudalab::labs::describe(g) << "\n";
  }
  return 0;
}
