// Lookups over the variant contract: role names and lab/variant search by what a learner types.
#include "cudalab/lab.hpp"

#include "cudalab/check.hpp"

#include <string>

namespace cudalab {

std::string_view to_string(variant_role role) {
  switch (role) {
    case variant_role::naive:
      return "naive";
    case variant_role::buggy:
      return "buggy";
    case variant_role::fixed:
      return "fixed";
    case variant_role::baseline:
      return "base";
    case variant_role::exercise:
      return "exercise";
  }
  return "?";
}

unsigned grid_dimension(std::uint64_t blocks) {
  if (blocks > 0xffffffffu)
    throw error("a grid of " + std::to_string(blocks) + " blocks does not fit a launch dimension");
  return static_cast<unsigned>(blocks);
}

std::string block_rule::violation(int block) const {
  const auto because = [&](std::string what) {
    return reason.empty() ? what : what + " (" + reason + ")";
  };
  if (block < min || block > max)
    return because("use " + std::to_string(min) + ".." + std::to_string(max) + " threads");
  if (multiple_of > 1 && block % multiple_of != 0)
    return because("use a multiple of " + std::to_string(multiple_of));
  if (power_of_two && (block & (block - 1)) != 0) return because("use a power of two");
  return {};
}

const variant* lab::find(std::string_view name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace cudalab
