// Parsing of the values a learner types: sizes (1M, 2^20, 1048576), lists (1M,4M,16M) and
// ranges (2^10..2^28 doubles; 0..32 for sweep parameters steps by one; a..b:s steps by s).
// Every bad value becomes a cudalab::usage_error with one clear line naming the option.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cudalab {

// One count: digits, an optional K/M/G suffix (powers of 1024), or 2^k.
// Throws usage_error for empty, negative, non-numeric, zero (unless allow_zero) or overflow.
std::size_t parse_count(std::string_view option, std::string_view text, bool allow_zero = false);

enum class range_step {
  doubling,  // 64..1024 -> 64,128,256,512,1024 (sizes and block sizes)
  unit       // 0..32 -> 0,1,...,32 (sweep parameters)
};

// A comma-separated list of counts and ranges. Ranges may be followed by :step (additive).
// Throws usage_error; the result has at most `max_items` entries.
std::vector<std::size_t> parse_count_list(std::string_view option, std::string_view text,
                                          range_step step, bool allow_zero = false,
                                          std::size_t max_items = 4096);

}  // namespace cudalab
