// `cudalab list`: the labs, their variants, roles and one-line lessons.
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/check.hpp"
#include "cudalab/lab.hpp"

#include <iomanip>
#include <iostream>

namespace cudalab::tool {

int list_command(const args& a) {
  po::options_description options("list options");
  po::positional_options_description positional;
  positional.add("lab", 1);
  options.add_options()("lab", po::value<std::string>(), "show only this lab");
  po::variables_map vm;
  if (!parse_options(a, "cudalab list [lab]", options, positional, vm)) return exit_ok;

  const lab* only = nullptr;
  if (vm.count("lab")) only = &lab_named(vm["lab"].as<std::string>());
  for (const auto& l : all_labs()) {
    if (only && only != &l) continue;
    std::cout << l.id << "  " << l.title << "   (" << l.readme << ")\n";
    for (const auto& v : l.variants) {
      std::cout << "  " << std::left << std::setw(24) << v.name << std::setw(9) << to_string(v.role)
                << v.lesson;
      if (v.sweep) {
        std::cout << "  [sweep " << v.sweep->name << " " << v.sweep->range_text() << "]";
      }
      std::cout << "\n";
    }
    // Scripts (sanitize.sh) read this line to pick a size the lab accepts.
    std::cout << "  size: " << l.size_unit << ", default " << l.default_size;
    if (l.max_size > 0) std::cout << ", at most " << l.max_size;
    if (l.sanitize_size > 0) std::cout << ", sanitizers at " << l.sanitize_size;
    std::cout << "\n";
    if (l.exercise)
      std::cout << "  exercise: " << l.exercise->file << "  (cudalab check " << l.id << ")\n";
    std::cout << "\n";
  }
  return exit_ok;
}

}  // namespace cudalab::tool
