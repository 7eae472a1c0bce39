#include "text_table.hpp"

#include <algorithm>
#include <sstream>

namespace cudalab {
namespace {

// Terminal columns of a UTF-8 string: one per code point (the tables use no wide characters).
std::size_t display_width(const std::string& s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::vector<std::string> layout_table(const std::vector<text_column>& columns,
                                      const std::vector<std::vector<std::string>>& rows) {
  std::vector<std::size_t> width(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    width[c] = display_width(columns[c].header);
    for (const auto& row : rows) width[c] = std::max(width[c], display_width(row.at(c)));
  }
  const auto line = [&](const auto& cell_of) {
    std::string text;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const std::string& v = cell_of(c);
      const std::string pad(width[c] - display_width(v), ' ');
      if (c) text += "  ";
      text += columns[c].left ? v + pad : pad + v;
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
  };
  std::vector<std::string> lines;
  lines.push_back(line([&](std::size_t c) -> const std::string& { return columns[c].header; }));
  for (const auto& row : rows)
    lines.push_back(line([&](std::size_t c) -> const std::string& { return row[c]; }));
  return lines;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::istringstream words(text);
  std::string word, line;
  while (words >> word) {
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

std::size_t widest_line(const std::vector<std::string>& lines) {
  std::size_t widest = 0;
  for (const auto& l : lines) widest = std::max(widest, display_width(l));
  return widest;
}

}  // namespace cudalab
