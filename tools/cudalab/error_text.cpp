#include "error_text.hpp"

#include "cudalab/user_text.hpp"

namespace cudalab::tool {

std::vector<std::string> message_lines(std::string_view message, std::string_view label,
                                       std::string_view hint) {
  std::vector<std::string> lines =
      hanging_lines("cudalab: ", "  ", one_line(message), output_columns);
  if (!hint.empty()) {
    const std::string first = "  " + std::string(label) + ": ";
    for (std::string& line :
         hanging_lines(first, std::string(first.size(), ' '), one_line(hint), output_columns))
      lines.push_back(std::move(line));
  }
  return lines;
}

std::vector<std::string> predictions_only_notice(std::string_view why) {
  return message_lines("the model's predictions only: no CUDA device (" + std::string(why) + ")",
                       "fix",
                       "run on a machine with an NVIDIA GPU and driver (cudalab doctor checks) for "
                       "times, checks and counters");
}

}  // namespace cudalab::tool
