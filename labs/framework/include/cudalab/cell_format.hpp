// How numbers look in the report's tables: fixed decimals, thousands separators, compact
// counts (6.95M) where a column must stay narrow, and times with their unit.
#pragma once

#include <string>

namespace cudalab::cells {

std::string fixed(double v, int decimals);
// 1,179,648
std::string with_separators(double v);
// Below 100,000 as with_separators; above, three significant digits and k, M or G: 6.95M.
std::string compact_count(double v);
// Four significant digits in the unit that suits: 37.50 us, 0.2083 ms is 208.3 us, 14.20 ms.
std::string time_with_unit(double ms);

}  // namespace cudalab::cells
