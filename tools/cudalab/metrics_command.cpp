// `cudalab metrics`: the counter catalogue and the named metric sets.
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/metrics.hpp"
#include "cudalab/user_text.hpp"

#include <iomanip>
#include <iostream>

namespace cudalab::tool {

int metrics_command(const args& a) {
  po::options_description options("metrics options");
  std::string set;
  const std::string set_help =
      "show the CUPTI names of one set or list (" + metric_set_list() + ", or a,b,c)";
  options.add_options()("set", po::value(&set), set_help.c_str());
  po::variables_map vm;
  if (!parse_options(a, "cudalab metrics [--set NAME]", options, {}, vm)) return exit_ok;
  // An empty --set is a mistake, not a request for everything.
  if (vm.count("set")) {
    for (const auto& name : resolve_metrics(set, "--set"))
      std::cout << display_name(name) << "  " << name << "\n";
    return exit_ok;
  }
  // Everything the tool prints fits 120 columns: the meanings wrap under their name.
  constexpr std::size_t indent = 22, width = 120;
  for (const auto& m : metric_catalogue()) {
    // A name as wide as its column keeps one blank before the next (constant_divergent_inst).
    std::cout << std::left << std::setw(indent) << (m.short_name + " ") << std::setw(11)
              << to_string(m.exactness) << m.source() << "\n";
    for (const auto& line : wrapped(m.meaning + " [" + m.unit + "]", width - indent))
      std::cout << std::string(indent, ' ') << line << "\n";
  }
  std::cout << "\nsets:\n";
  for (const auto& s : metric_sets())
    std::cout << "  " << std::left << std::setw(indent - 2) << s.name << s.meaning << "\n";
  std::cout << "  " << std::left << std::setw(indent - 2) << "all"
            << "every metric above\n";
  std::cout << "(cudalab run <lab> --metrics <set|a,b,c>; any metric the chip offers by its "
               "CUPTI name)\n";
  return exit_ok;
}

}  // namespace cudalab::tool
