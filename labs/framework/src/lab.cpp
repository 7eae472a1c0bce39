// Lookups over the variant contract: role names and lab/variant search by what a learner types.
#include "cudalab/lab.hpp"

#include <cstdlib>

namespace cudalab {

std::string_view to_string(variant_role role) {
  switch (role) {
    case variant_role::naive: return "naive";
    case variant_role::buggy: return "buggy";
    case variant_role::fixed: return "fixed";
    case variant_role::baseline: return "base";
    case variant_role::exercise: return "exercise";
  }
  return "?";
}

const variant* lab::find(std::string_view name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

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
