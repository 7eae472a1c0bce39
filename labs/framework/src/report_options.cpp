#include "cudalab/report_options.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

namespace cudalab {

output_format parse_output_format(std::string_view text) {
  if (text == "table") return output_format::table;
  if (text == "csv") return output_format::csv;
  if (text == "json") return output_format::json;
  throw usage_error("--format '" + shown(text, 32) + "': use table, csv or json");
}

report_view parse_report_view(std::string_view text) {
  if (text == "default") return report_view::standard;
  if (text == "full") return report_view::full;
  if (text == "trace") return report_view::trace;
  throw usage_error("--view '" + shown(text, 32) +
                    "': use default, full or trace (--details VARIANT lists one variant)");
}

}  // namespace cudalab
