// `cudalab list`: the labs, their variants, roles and one-line lessons; with --format json,
// the same as data for scripts (which read it instead of the table's text).
#include "commands.hpp"
#include "options.hpp"

#include "cudalab/check.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/report_options.hpp"
#include "cudalab/user_text.hpp"

#include <nlohmann/json.hpp>

#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace cudalab::tool {
namespace {

constexpr std::size_t lesson_column = 2 + 24 + 9;  // indent, name, role

// One lab as data: what `cudalab list` prints, each figure in a field of its own.
nlohmann::ordered_json lab_json(const lab& l) {
  nlohmann::ordered_json out;
  out["id"] = l.id;
  out["number"] = l.number();
  out["title"] = l.title;
  out["readme"] = l.readme;
  out["size_unit"] = l.size_unit;
  out["default_size"] = l.default_size;
  out["max_size"] = l.max_size ? nlohmann::ordered_json(l.max_size) : nlohmann::ordered_json();
  // The size compute-sanitizer runs at (scripts/sanitize.sh): the lab's own, else 1,000,003
  // (no multiple of any block, so tail blocks run) where the lab takes it, else its default.
  constexpr std::size_t odd_size = 1000003;
  out["sanitize_size"] = l.sanitize_size                       ? l.sanitize_size
                         : l.max_size && l.max_size < odd_size ? l.default_size
                                                               : odd_size;
  out["variants"] = nlohmann::ordered_json::array();
  for (const variant& v : l.variants) {
    nlohmann::ordered_json j;
    j["name"] = v.name;
    j["role"] = to_string(v.role);
    j["lesson"] = v.lesson;
    j["default_block"] = v.default_block;
    j["block_from_tiles"] = static_cast<bool>(v.threads_per_block);
    j["has_kernels"] = v.has_kernels;
    if (v.sweep) {
      j["sweep"] = {{"name", v.sweep->name},
                    {"default", v.sweep->default_values},
                    {"min", v.sweep->min},
                    {"max", v.sweep->max},
                    {"only", v.sweep->only}};
    } else {
      j["sweep"] = nullptr;
    }
    out["variants"].push_back(std::move(j));
  }
  out["exercise"] = l.exercise ? nlohmann::ordered_json{{"file", l.exercise->file},
                                                        {"variant", l.exercise->variant},
                                                        {"size", l.exercise->size}}
                               : nlohmann::ordered_json();
  return out;
}

}  // namespace

int list_command(const args& a) {
  po::options_description options("list options");
  po::positional_options_description positional;
  positional.add("lab", 1);
  std::string format_text = "table";
  options.add_options()("lab", po::value<std::string>(), "show only this lab")(
      "format,f", po::value(&format_text), "table or json (for scripts)");
  po::variables_map vm;
  if (!parse_options(a, "cudalab list [lab] [--format table|json]", options, positional, vm))
    return exit_ok;
  const output_format format = parse_output_format(format_text);
  if (format == output_format::csv) throw usage_error("--format csv: list prints table or json");

  const lab* only = nullptr;
  if (vm.count("lab")) only = &lab_named(vm["lab"].as<std::string>());
  if (format == output_format::json) {
    nlohmann::ordered_json doc;
    doc["labs"] = nlohmann::ordered_json::array();
    for (const auto& l : all_labs())
      if (!only || only == &l) doc["labs"].push_back(lab_json(l));
    std::cout << doc.dump(2) << "\n";
    return exit_ok;
  }
  for (const auto& l : all_labs()) {
    if (only && only != &l) continue;
    std::cout << l.id << "  " << l.title << "\n  lesson: " << l.readme << "\n";
    for (const auto& v : l.variants) {
      std::cout << "  " << std::left << std::setw(24) << v.name << std::setw(9)
                << to_string(v.role);
      std::string lesson = v.lesson;
      if (v.sweep) lesson += "  [sweep " + v.sweep->name + " " + v.sweep->range_text() + "]";
      // Within 120 columns: the lesson wraps under itself.
      const std::vector<std::string> lines = wrapped(lesson, 120 - lesson_column);
      for (std::size_t i = 0; i < lines.size(); ++i)
        std::cout << (i ? std::string(lesson_column, ' ') : std::string()) << lines[i] << "\n";
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
