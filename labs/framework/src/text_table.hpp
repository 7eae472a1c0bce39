// Lays out a table of text cells in columns two spaces apart: text left-aligned, numbers
// right-aligned (their headers too), trailing blanks trimmed. The views decide the cells; this only
// pads them.
#pragma once

#include <string>
#include <vector>

namespace cudalab {

struct text_column {
  std::string header;
  bool left = false;  // text (names, verdicts); numbers align right
};

// The header line and one line a row; each row has a cell per column.
std::vector<std::string> layout_table(const std::vector<text_column>& columns,
                                      const std::vector<std::vector<std::string>>& rows);
// The words of `text` in lines of at most `width` characters (a longer word stands alone).
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

// The widest line's length in characters (UTF-8 aware: a device name may hold "®").
std::size_t widest_line(const std::vector<std::string>& lines);

}  // namespace cudalab
