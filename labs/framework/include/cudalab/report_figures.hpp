// The figures a report shows for a row: every catalogue metric, and the ratios a lesson is
// told in (sectors per request, DRAM bytes over the ideal, threads launched over needed).
// Each figure has a measured and, where the access model gives one, a predicted value, so the
// table views, the details view and the files all read the same numbers.
#pragma once

#include "cudalab/result_row.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

struct figure {
  std::string name;     // a catalogue short name, or a ratio: ld_sectors_per_request
  std::string header;   // its column header: "ld sect/req"
  std::string unit;     // "sectors/request"
  std::string meaning;  // one sentence for a learner
  int decimals = 0;     // 0: a count, printed with thousands separators
  std::string suffix;   // printed after the value: "x" for ratios of bytes or threads
  // A ratio whose distance from 1 is the lesson (threads launched over needed): a value that is
  // not 1 gets the digits that tell it from 1 (0.9999872 prints 0.99999, not 1.0000).
  bool tells_apart_from_one = false;
  // Catalogue short names the figure is computed from: their model verdict marks its cell,
  // and a missing one makes it n/a with the counter's reason.
  std::vector<std::string> inputs;
  std::function<std::optional<double>(const result_row&)> measured;
  std::function<std::optional<double>(const result_row&)> predicted;
};

// nullptr when `name` is neither a catalogue short name nor a known ratio.
const figure* find_figure(std::string_view name);
// The ratios (not in the catalogue), in display order.
const std::vector<figure>& derived_figures();
// What the default view shows when a lab declares no headline figures.
const std::vector<std::string>& default_headline_figures();

// Every metric some row collected or could not collect, catalogue short names first in the
// catalogue's order, then other CUPTI names as they are.
std::vector<std::string> collected_metric_names(const std::vector<result_row>& rows);

// Why a row has no measured value of `f` although its counters ran: the reason of the first
// missing input (counter_cell::missing), or "" when there is no such reason.
std::string missing_reason(const result_row& row, const figure& f);
// True when a compared input of `f` disagrees with the model.
bool differs_from_model(const result_row& row, const figure& f);

}  // namespace cudalab
