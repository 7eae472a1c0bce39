// find_lab: a lab by what a learner types. Apart from lab.cpp because it needs the registry
// (all_labs, generated), which only the tool and whole-kit tests link.
#include "cudalab/lab.hpp"

#include <cstdlib>

namespace cudalab {

const lab* find_lab(std::string_view name) {
  for (const auto& l : all_labs()) {
    if (l.id == name) return &l;
    // "04", "4" or "coalescing" name the same lab as "04-coalescing".
    const std::string_view suffix = std::string_view(l.id).substr(3);
    if (suffix == name) return &l;
    if (!name.empty() && name.size() <= 2 &&
        name.find_first_not_of("0123456789") == std::string_view::npos &&
        std::atoi(std::string(name).c_str()) == std::atoi(l.number().c_str()))
      return &l;
  }
  return nullptr;
}

}  // namespace cudalab
