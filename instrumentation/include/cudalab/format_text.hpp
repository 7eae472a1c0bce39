// Text the kit writes: one printf-style formatter and one joiner, instead of a fixed-size
// snprintf buffer and a hand-written ", " loop in every file that prints a line.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

// printf formatting into a string of any length; the compiler checks the arguments against
// the format ("ld sectors/request %.2f <= %.2f").
std::string formatted(const char* format, ...) __attribute__((format(printf, 1, 2)));

// "a, b, c" from {"a", "b", "c"}; "" from none.
std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ");

}  // namespace cudalab
