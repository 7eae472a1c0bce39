// Text the learner typed: one way to split a comma-separated list, and one way to show a typed
// value inside a message.
//
// Every error the kit prints is one line (tools/cudalab/main.cpp). A value can break that: an
// argument may hold a newline or an escape sequence, or be 100,000 characters long. shown()
// makes any value safe to quote; split_list() is the one list parser behind --variant, --size,
// --block, --sweep and --metrics, so every list trims, rejects empty items and drops repeats
// the same way.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

// `value` with control characters escaped (\n, \t, \x1b ...) and cut to about `limit`
// characters ("abc... (100000 characters)"), so it fits in a one-line message.
std::string shown(std::string_view value, std::size_t limit = 64);

// The whole message made one line: control characters escaped and the text cut to `limit`.
// The last guard in main() for messages that quote text the kit did not write (Boost's).
std::string one_line(std::string_view message, std::size_t limit = 400);

// `text` without its leading and trailing blanks (spaces, tabs, newlines).
std::string trim(std::string_view text);

// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone).
std::vector<std::string> wrapped(std::string_view text, std::size_t width);

// `text` after `first` within `width` columns, the lines after the first led by `next` (a hanging
// indent: "  fix: ..." and its continuation). A text that fits stays as written, blanks and all.
std::vector<std::string> hanging_lines(std::string_view first, std::string_view next,
                                       std::string_view text, std::size_t width);

// "a, b,a,c" -> {"a", "b", "c"}: items trimmed of blanks, repeats dropped (first kept).
// Throws usage_error naming `option` for an empty list or an empty item ("a,,b", "a,").
std::vector<std::string> split_list(std::string_view option, std::string_view text);

}  // namespace cudalab
