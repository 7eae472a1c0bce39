// Reading compute-sanitizer's text reports (sanitizer_report.hpp).
#include "sanitizer_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <regex>

namespace cudalab::labs {
namespace {

constexpr std::string_view prefix = "=========";

// The text after the "=========" prefix and one space, or nullopt for a line of the program.
std::optional<std::string_view> tool_line(std::string_view line) {
  if (line.substr(0, prefix.size()) != prefix) return std::nullopt;
  line.remove_prefix(prefix.size());
  if (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  return line;
}

std::string trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// "1,024" -> 1024.
std::size_t number(const std::string& digits) {
  std::string plain;
  for (char c : digits)
    if (std::isdigit(static_cast<unsigned char>(c))) plain += c;
  return plain.empty() ? 0 : static_cast<std::size_t>(std::strtoull(plain.c_str(), nullptr, 10));
}

// Lines that open a report, as opposed to the details under one and the tool's own chatter.
bool opens_report(const std::string& text) {
  // Said when the program exits non-zero: about the program, not a finding.
  if (text.rfind("Error: process didn't terminate successfully", 0) == 0) return false;
  static const std::regex opening(
      R"(^(Invalid |Uninitialized |Error: Race |Warning: Race |Race reported|Barrier error|)"
      R"(Leaked |Program hit |Misaligned |Out-of-range |Malloc/Free error|)"
      R"(Cuda API error|Invalid __|Unused memory|Illegal |Error: |Warning: ))");
  return std::regex_search(text, opening);
}

// "ramp_unguarded_kernel(float *, unsigned long)+0x90" -> "ramp_unguarded_kernel";
// "cudalab::debugging::ramp_unguarded_kernel(...)" keeps its namespace.
std::string kernel_name(const std::string& where) {
  const std::size_t paren = where.find('(');
  std::string name = trimmed(where.substr(0, paren));
  if (const std::size_t space = name.rfind(' '); space != std::string::npos)
    name = name.substr(space + 1);  // a return type before the name ("void f(...)")
  return name;
}

// "/src/kernels/debugging/memory_bugs.cu:30" -> "memory_bugs.cu:30".
std::string short_location(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

void read_detail(const std::string& text, sanitizer_finding& f) {
  static const std::regex at(R"(^at (.+?)(?: in (\S+:\d+))?$)");
  static const std::regex race_at(R"(access at (.+?) in (\S+:\d+))");
  static const std::regex by(R"(^by thread (\(\d+,\d+,\d+\)) in block (\(\d+,\d+,\d+\)))");
  static const std::regex address(R"(^Address (0x[0-9a-fA-F]+))");
  static const std::regex old_at(R"(^at 0x[0-9a-fA-F]+ in (\S+:\d+):(.+)$)");
  std::smatch m;
  if (text.rfind("and ", 0) == 0 && f.kind.find("Race reported") != std::string::npos) {
    f.kind += " " + text;  // racecheck's second access, on a line of its own
  } else if (std::regex_search(text, m, by)) {
    if (f.thread.empty()) {
      f.thread = m[1];
      f.block = m[2];
    }
  } else if (std::regex_search(text, m, address)) {
    if (f.address.empty()) f.address = m[1];
  } else if (f.kernel.empty() && std::regex_search(text, m, old_at)) {
    f.kernel = kernel_name(m[2]);  // the older layout: "at 0x90 in file.cu:30:kernel(...)"
    f.location = short_location(m[1]);
  } else if (text.rfind("at ", 0) == 0 && f.kernel.empty() && std::regex_search(text, m, at)) {
    f.kernel = kernel_name(m[1]);
    if (m[2].matched) f.location = short_location(m[2]);
  } else if (f.kernel.empty() && std::regex_search(text, m, race_at)) {
    f.kernel = kernel_name(m[1]);
    f.location = short_location(m[2]);
  }
}

}  // namespace

sanitizer_report parse_sanitizer_output(std::string_view text) {
  static const std::regex summary(R"(^ERROR SUMMARY: ([0-9,]+) errors?)");
  static const std::regex race_summary(
      R"(^RACECHECK SUMMARY: [0-9,]+ hazards? displayed \(([0-9,]+) errors?, [0-9,]+ warnings?\))");
  static const std::regex kernel_in_opening(R"(access at (.+?) in (\S+:\d+))");
  static const std::regex leak_address(R"(^Leaked [0-9,]+ bytes at (0x[0-9a-fA-F]+))");
  sanitizer_report report;
  sanitizer_finding* open = nullptr;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    const std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (raw.find("Device not supported") != std::string_view::npos)
      report.device_unsupported = true;
    const auto line = tool_line(raw);
    if (!line) continue;
    const bool indented = !line->empty() && std::isspace(static_cast<unsigned char>(line->front()));
    const std::string content = trimmed(*line);
    std::smatch m;
    if (std::regex_search(content, m, summary) || std::regex_search(content, m, race_summary)) {
      // racecheck prints both summaries where it prints the second: keep the larger.
      report.error_summary = std::max(report.error_summary.value_or(0), number(m[1]));
      open = nullptr;
      continue;
    }
    if (!indented && opens_report(content)) {
      sanitizer_finding f;
      f.kind = content;
      if (std::regex_search(content, m, kernel_in_opening)) {
        f.kernel = kernel_name(m[1]);
        f.location = short_location(m[2]);
      }
      if (std::regex_search(content, m, leak_address)) f.address = m[1];
      report.findings.push_back(std::move(f));
      open = &report.findings.back();
      continue;
    }
    if (indented && open) read_detail(content, *open);
    if (!indented) open = nullptr;  // the tool's own chatter ends a report
  }
  return report;
}

namespace {

// The kind with what varies from one report of it to the next taken out: addresses, sizes
// leaked, source lines of racecheck's two accesses.
std::string kind_key(const std::string& kind) {
  static const std::regex leak(R"(^Leaked [0-9,]+ bytes at 0x[0-9a-fA-F]+.*)");
  static const std::regex race(R"(^(Error|Warning): Race reported between (\w+) access at .*)"
                               R"(and (\w+) access at .*)");
  std::smatch m;
  if (std::regex_match(kind, m, leak)) return "Leaked device memory";
  if (std::regex_match(kind, m, race))
    return m[1].str() + ": Race reported between " + m[2].str() + " access and " + m[3].str() +
           " access";
  static const std::regex hex(R"(0x[0-9a-fA-F]+)");
  return std::regex_replace(kind, hex, "0x...");
}

}  // namespace

std::vector<finding_group> group_findings(const sanitizer_report& report) {
  std::vector<finding_group> groups;
  for (const sanitizer_finding& f : report.findings) {
    const std::string key = kind_key(f.kind);
    auto it = groups.begin();
    for (; it != groups.end(); ++it)
      if (it->kind == key) break;
    if (it == groups.end()) {
      groups.push_back({key, 0, f});
      it = groups.end() - 1;
    }
    ++it->count;
  }
  return groups;
}

std::string describe(const finding_group& g) {
  std::string s = g.kind + ": " + std::to_string(g.count) + (g.count == 1 ? " time" : " times");
  const sanitizer_finding& f = g.first;
  std::string first;
  if (!f.kernel.empty()) first += " in " + f.kernel;
  if (!f.location.empty()) first += " at " + f.location;
  if (!f.thread.empty()) first += ", thread " + f.thread + " block " + f.block;
  if (!f.address.empty()) first += ", address " + f.address;
  if (!first.empty()) s += ", first" + first;
  return s;
}

}  // namespace cudalab::labs
