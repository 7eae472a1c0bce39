// How the tool prints what stops it or what it warns of: "cudalab: " and the message, its fix
// or hint under it, every line within the tool's 120 columns.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab::tool {

// The widest line the tool prints.
inline constexpr std::size_t output_columns = 120;

// "cudalab: <message>" and, when `hint` is not empty, "  <label>: <hint>" under it. Control
// characters are escaped; a line too long goes on under its first, indented, broken at spaces,
// so a long reason never cuts off the fix after it.
std::vector<std::string> message_lines(std::string_view message, std::string_view label = "",
                                       std::string_view hint = "");

// What `run` prints in place of its verdict when no GPU ran the points: the reason (`why`, from
// cuda_device_count) and the fix.
std::vector<std::string> predictions_only_notice(std::string_view why);

}  // namespace cudalab::tool
