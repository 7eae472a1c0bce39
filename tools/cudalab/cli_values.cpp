#include "cli_values.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

namespace cudalab {
namespace {

[[noreturn]] void bad(std::string_view option, std::string_view text, const std::string& why) {
  throw usage_error(std::string(option) + " '" + shown(text) + "': " + why);
}

constexpr std::size_t max_count = std::numeric_limits<std::size_t>::max();

std::size_t parse_digits(std::string_view option, std::string_view whole, std::string_view digits) {
  if (digits.empty()) bad(option, whole, "expected a number such as 1048576, 1M or 2^20");
  std::size_t value = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c)))
      bad(option, whole, "not a number (use digits, a K/M/G suffix, or 2^k)");
    const std::size_t d = static_cast<std::size_t>(c - '0');
    if (value > (max_count - d) / 10) bad(option, whole, "too large");
    value = value * 10 + d;
  }
  return value;
}

}  // namespace

std::size_t parse_count(std::string_view option, std::string_view raw, bool allow_zero) {
  const std::string text = trim(raw);
  if (text.empty()) bad(option, raw, "empty value");
  // A value that may be 0 (a sweep's first point, lab 08's config 0) is not "positive".
  if (text[0] == '-') bad(option, raw, allow_zero ? "must not be negative" : "must be positive");
  if (text[0] == '+') bad(option, raw, "write the number without a sign");
  std::size_t value = 0;
  if (const auto caret = text.find('^'); caret != std::string::npos) {
    const std::size_t base = parse_digits(option, raw, std::string_view(text).substr(0, caret));
    const std::size_t exponent =
        parse_digits(option, raw, std::string_view(text).substr(caret + 1));
    if (base != 2) bad(option, raw, "only powers of two (2^k) are accepted");
    if (exponent >= 63) bad(option, raw, "too large");
    value = std::size_t{1} << exponent;
  } else {
    std::size_t multiplier = 1;
    std::string_view digits = text;
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
      case 'K':
        multiplier = std::size_t{1} << 10;
        break;
      case 'M':
        multiplier = std::size_t{1} << 20;
        break;
      case 'G':
        multiplier = std::size_t{1} << 30;
        break;
      default:
        break;
    }
    if (multiplier != 1) digits.remove_suffix(1);
    value = parse_digits(option, raw, digits);
    if (value > max_count / multiplier) bad(option, raw, "too large");
    value *= multiplier;
  }
  if (value == 0 && !allow_zero) bad(option, raw, "must be at least 1");
  return value;
}

std::vector<std::size_t> parse_count_list(std::string_view option, std::string_view text,
                                          range_step step, bool allow_zero, std::size_t max_items) {
  std::vector<std::size_t> values;
  const auto add = [&](std::size_t v) {
    // A value listed twice (1M,1M or 1M,2^20) would run twice: keep the first.
    if (std::find(values.begin(), values.end(), v) != values.end()) return;
    values.push_back(v);
    if (values.size() > max_items)
      bad(option, text, "too many values (at most " + std::to_string(max_items) + ")");
  };
  for (const std::string& item_text : split_list(option, text)) {
    const std::string_view item = item_text;
    if (const auto dots = item.find(".."); dots != std::string_view::npos) {
      std::string_view upper = item.substr(dots + 2);
      std::size_t increment = 0;
      if (const auto colon = upper.find(':'); colon != std::string_view::npos) {
        increment = parse_count(option, upper.substr(colon + 1));
        upper = upper.substr(0, colon);
      }
      const std::size_t lo = parse_count(option, item.substr(0, dots), allow_zero);
      const std::size_t hi = parse_count(option, upper, allow_zero);
      if (lo > hi) bad(option, item, "the range is empty (start is larger than end)");
      if (increment == 0 && step == range_step::doubling && lo == 0)
        bad(option, item, "a doubling range cannot start at 0");
      for (std::size_t v = lo; v <= hi;) {
        add(v);
        const std::size_t next =
            increment ? v + increment : (step == range_step::doubling ? v * 2 : v + 1);
        if (next <= v) break;  // overflow
        v = next;
      }
    } else {
      add(parse_count(option, item, allow_zero));
    }
  }
  return values;
}

}  // namespace cudalab
