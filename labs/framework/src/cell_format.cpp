#include "cudalab/cell_format.hpp"

#include <cmath>
#include <iomanip>
#include <sstream>

namespace cudalab::cells {

std::string fixed(double v, int decimals) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(decimals) << v;
  return s.str();
}

std::string with_separators(double v) {
  std::string digits = fixed(v, 0);
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return negative ? "-" + out : out;
}

std::string compact_count(double v) {
  const double magnitude = std::abs(v);
  if (magnitude < 100'000) return with_separators(v);
  static const char* const suffixes[] = {"k", "M", "G", "T"};
  double scaled = v / 1e3;
  int i = 0;
  while (std::abs(scaled) >= 999.5 && i < 3) {
    scaled /= 1e3;
    ++i;
  }
  const double a = std::abs(scaled);
  const int decimals = a < 9.995 ? 2 : a < 99.95 ? 1 : 0;
  return fixed(scaled, decimals) + suffixes[i];
}

std::string time_with_unit(double ms) {
  const auto four_digits = [](double v, const char* unit) {
    const double a = std::abs(v);
    const int decimals = a < 9.9995 ? 3 : a < 99.995 ? 2 : a < 999.95 ? 1 : 0;
    return fixed(v, decimals) + " " + unit;
  };
  if (ms < 1.0) return four_digits(ms * 1e3, "us");
  if (ms < 1000.0) return four_digits(ms, "ms");
  return four_digits(ms / 1e3, "s");
}

}  // namespace cudalab::cells
