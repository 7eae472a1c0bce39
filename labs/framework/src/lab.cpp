// Lookups over the variant contract: role names and lab/variant search by what a learner types.
#include "cudalab/lab.hpp"

#include "cudalab/check.hpp"

#include <algorithm>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace cudalab {

std::string_view to_string(variant_role role) {
  // In the order of variant_role's values.
  static constexpr std::string_view names[] = {"naive", "buggy", "fixed", "base", "exercise"};
  const auto index = static_cast<std::size_t>(role);
  return index < std::size(names) ? names[index] : "?";
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

variant new_variant(std::string name, variant_role role, std::string lesson) {
  variant v;
  v.name = std::move(name);
  v.role = role;
  v.lesson = std::move(lesson);
  return v;
}

lab new_lab(const std::string& id, std::string title, std::string size_unit, lab_sizes sizes) {
  lab l;
  l.id = id;
  l.title = std::move(title);
  l.size_unit = std::move(size_unit);
  l.readme = "labs/" + id + "/README.md";
  l.default_size = sizes.default_size;
  l.max_size = sizes.max_size;
  l.sanitize_size = sizes.sanitize_size;
  return l;
}

exercise_spec new_exercise(const std::string& lab_id, std::size_t size,
                           decltype(exercise_spec::grade) grade) {
  exercise_spec ex;
  ex.variant = "exercise";
  ex.file = "labs/" + lab_id + "/exercise.cu";
  ex.size = size;
  ex.grade = std::move(grade);
  return ex;
}

std::string grade_verdict(bool ok) { return ok ? "  ok" : "  FAIL"; }

bool grade_report::passed() const {
  return !lines.empty() &&
         std::all_of(lines.begin(), lines.end(), [](const grade_line& l) { return l.ok; });
}

std::string grade_report::hint() const {
  std::string out;
  std::vector<std::string> said;
  for (const grade_line& l : lines) {
    if (l.ok || l.hint.empty() || std::find(said.begin(), said.end(), l.hint) != said.end())
      continue;
    said.push_back(l.hint);
    out += (out.empty() ? "" : " ") + l.hint;
  }
  return out;
}

void grade_report::add_unchecked(std::string key, std::string text) {
  add(std::move(key), true, std::move(text));
  lines.back().unchecked = true;
}

std::size_t grade_report::unchecked() const {
  return static_cast<std::size_t>(
      std::count_if(lines.begin(), lines.end(), [](const grade_line& l) { return l.unchecked; }));
}

void grade_report::add(std::string key, bool ok, std::string text, std::string hint) {
  grade_line line;
  line.key = std::move(key);
  line.ok = ok;
  line.text = std::move(text);
  line.hint = std::move(hint);
  lines.push_back(std::move(line));
}

const grade_line* grade_report::find(std::string_view key) const {
  for (const grade_line& l : lines)
    if (l.key == key) return &l;
  return nullptr;
}

const variant* lab::find(std::string_view name) const {
  for (const auto& v : variants)
    if (v.name == name) return &v;
  return nullptr;
}

}  // namespace cudalab
