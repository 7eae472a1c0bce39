#include "options.hpp"

#include "cli_values.hpp"
#include "cudalab/check.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/user_text.hpp"

#include <iostream>

namespace cudalab::tool {

bool parse_options(const args& a, const std::string& usage_line, po::options_description& options,
                   const po::positional_options_description& positional, po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  po::store(po::command_line_parser(a).options(options).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << usage_line << "\n\n" << options << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

int parse_int_option(const std::string& option, const std::string& text, int min, int max) {
  const std::size_t value = parse_count(option, text, min <= 0);
  if (value < static_cast<std::size_t>(min) || value > static_cast<std::size_t>(max))
    throw usage_error(option + " '" + shown(text) + "': must be between " + std::to_string(min) +
                      " and " + std::to_string(max));
  return static_cast<int>(value);
}

const lab& lab_named(const std::string& name) {
  if (const lab* l = find_lab(name)) return *l;
  std::string known;
  // The numbers fit one line; `cudalab list` gives their names.
  for (const auto& l : all_labs()) known += (known.empty() ? "" : ", ") + l.number();
  throw usage_error("unknown lab '" + shown(name) + "' (labs " + known + ": cudalab list)");
}

}  // namespace cudalab::tool
