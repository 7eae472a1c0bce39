// The cells every table view shares: how a row names its variant, its verification and its
// model verdict, and how a figure's measured value stands beside the prediction.
#pragma once

#include "cudalab/report_figures.hpp"
#include "cudalab/result_row.hpp"

#include <optional>
#include <string>

namespace cudalab::cells {

// "aos_float3"; a sweep point "offset=8" (or "name offset=8" where the sweep is named apart).
std::string variant_label(const result_row& row);
// The threads a block of the row's launch: its shape where the launch reported one (or the host
// computed it), the block asked for where nothing ran (no GPU), none where the point ran and
// reported no launch of its own (a library's or the host's work: cuBLAS, CUB, the CPU).
std::optional<long> block_threads(const result_row& row);
// That as a cell: "-" for none.
std::string block(const result_row& row);
// The main kernel's registers a thread, "spill" added where it uses local memory
// ("255 spill"); "-" without resources.
std::string registers(const result_row& row);
// The main kernel's theoretical occupancy, "50%"; "-" without resources.
std::string occupancy(const result_row& row);
// "ok", "FAIL", "n/a"; with_detail adds what verify() said: "ok (max abs err 0 (exact))".
std::string verification(const result_row& row, bool with_detail);

enum class verdict_length {
  names,   // "MISMATCH ld_sectors +1", "MISMATCH: shared_st_conflicts +2"
  short_,  // "MISMATCH"
  compact  // "MISMATCH", and "none" for "no model": the last way to fit a wide table
};
// "= model", "MISMATCH ...", "n/a" (no counters) or "no model" ("none" when compact).
std::string model_verdict(const result_row& row, verdict_length length);
// The verdict with every metric named, as the full view prints it.
std::string model_verdict_in_full(const result_row& row);

// A figure's value as a table shows it: a count with separators (compact: 6.95M), a ratio
// with the figure's decimals and suffix.
std::string figure_value(const figure& f, double v, bool compact);

// A figure's cell in the default view: the measured value; the prediction beside it only
// where it differs ("12.00 (pred 4.00) !"), `!` where the model verdict fails; "pred 4.00"
// with no measurement; "n/a (why)" for a counter this run could not collect ("n/a" when
// the view says why below the table); "-" otherwise.
struct headline_style {
  bool show_prediction = true;
  bool explain_missing = true;
};
std::string headline(const result_row& row, const figure& f, headline_style style);

}  // namespace cudalab::cells
