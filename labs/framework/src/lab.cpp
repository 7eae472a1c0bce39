// Lookups over the variant contract: role names and lab/variant search by what a learner types.
#include "cudalab/lab.hpp"


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

}  // namespace cudalab
