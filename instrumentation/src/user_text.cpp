#include "cudalab/user_text.hpp"

#include "cudalab/check.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace cudalab {
namespace {

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20 || u == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", u);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string cut(std::string text, std::size_t original_size, std::size_t limit) {
  if (text.size() <= limit) return text;
  // Cut on a character boundary: never inside a UTF-8 sequence (continuation bytes 10xxxxxx).
  std::size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  text.resize(end);
  return text + "... (" + std::to_string(original_size) + " characters)";
}

}  // namespace

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

std::string shown(std::string_view value, std::size_t limit) {
  return cut(escaped(value), value.size(), limit);
}

std::string one_line(std::string_view message, std::size_t limit) {
  return cut(escaped(message), message.size(), limit);
}

std::vector<std::string> split_list(std::string_view option, std::string_view text) {
  if (trim(text).empty())
    throw usage_error(std::string(option) + " '" + shown(text) + "': empty value");
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = trim(text.substr(
        start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (item.empty())
      throw usage_error(std::string(option) + " '" + shown(text) +
                        "': an empty item (two commas, or a comma at an end)");
    if (std::find(items.begin(), items.end(), item) == items.end()) items.push_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::vector<std::string> hanging_lines(std::string_view first, std::string_view next,
                                       std::string_view text, std::size_t width) {
  if (first.size() + text.size() <= width) return {std::string(first) + std::string(text)};
  std::vector<std::string> lines = wrapped(text, width - std::max(first.size(), next.size()));
  for (std::size_t i = 0; i < lines.size(); ++i) lines[i].insert(0, i == 0 ? first : next);
  return lines;
}

std::vector<std::string> wrapped(std::string_view text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    if (!word.empty()) {
      if (!line.empty() && line.size() + 1 + word.size() > width) {
        lines.push_back(line);
        line.clear();
      }
      line += (line.empty() ? "" : " ") + std::string(word);
    }
    start = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace cudalab
