// The flat record of a row: every field, in the same order and under the same names in CSV
// and JSON, so that plots and tools read either. New fields go at the end.
#pragma once

#include "cudalab/result_row.hpp"

#include <optional>
#include <string>
#include <vector>

namespace cudalab {

struct record_field {
  std::string name;
  bool is_text = false;
  std::string text;              // is_text
  std::optional<double> number;  // !is_text; empty: no value (CSV "", JSON null)
  int decimals = 0;              // digits kept after the point; 0: an integer
};

// `collected`: collected_metric_names() of all the rows, so every row has the same fields.
std::vector<record_field> record_of(const result_row& row,
                                    const std::vector<std::string>& collected);

}  // namespace cudalab
