// Finding metrics in the catalogue (metric_catalogue.cpp) and reading their values:
// resolve_metrics() turns "--metrics memory" or "ld_sectors,dram__bytes_read.sum" into CUPTI
// names before anything runs: a typo is a usage_error naming the closest short names.
#include "cudalab/metrics.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

#include <algorithm>
#include <map>

namespace cudalab {
namespace {

// The members of a named set, in catalogue order; empty when no entry names it.
std::vector<const metric_info*> members_of(std::string_view set) {
  std::vector<const metric_info*> members;
  for (const auto& m : metric_catalogue())
    if (std::find(m.sets.begin(), m.sets.end(), set) != m.sets.end()) members.push_back(&m);
  return members;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// Up to three known names within a third of the typed name's length and at most two edits
// further than the best match.
std::vector<std::string> close_matches(std::string_view name) {
  const bool cupti_like = name.find("__") != std::string_view::npos;
  std::vector<std::pair<std::size_t, std::string>> scored;
  const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);
  auto consider = [&](const std::string& candidate) {
    const std::size_t d = edit_distance(name, candidate);
    if (d <= limit) scored.emplace_back(d, candidate);
  };
  for (const auto& m : metric_catalogue())
    if (!cupti_like || !m.derived()) consider(cupti_like ? m.cupti_name : m.short_name);
  if (!cupti_like)
    for (const auto& set : metric_set_names()) consider(set);
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && i < 3; ++i)
    if (scored[i].first <= scored.front().first + 2) out.push_back(scored[i].second);
  return out;
}

bool is_identifier(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// A CUPTI metric: unit__counter, a rollup (.sum .avg .min .max .ratio .pct .max_rate) and at
// most one submetric (.per_second, .pct_of_peak_sustained_elapsed, ...).
bool looks_like_cupti_metric(std::string_view name) {
  const std::size_t dot = name.find('.');
  if (dot == std::string_view::npos) return false;
  const std::string_view base = name.substr(0, dot);
  const std::size_t sep = base.find("__");
  if (sep == 0 || sep == std::string_view::npos || sep + 2 >= base.size() || !is_identifier(base))
    return false;
  std::string_view rest = name.substr(dot + 1);
  const std::size_t dot2 = rest.find('.');
  const std::string_view rollup = rest.substr(0, dot2);
  static const char* const rollups[] = {"sum", "avg", "min", "max", "ratio", "pct", "max_rate"};
  if (std::none_of(std::begin(rollups), std::end(rollups),
                   [&](const char* r) { return rollup == r; }))
    return false;
  if (dot2 == std::string_view::npos) return true;
  return is_identifier(rest.substr(dot2 + 1));
}

[[noreturn]] void unknown_metric(const std::string& name) {
  std::string message = "unknown metric '" + shown(name) + "'";
  if (name.find("__") != std::string::npos && name.find('.') == std::string::npos) {
    throw usage_error(message + ": a CUPTI metric needs a rollup suffix such as " + shown(name) +
                          ".sum, .avg, .max, .ratio or .pct",
                      "`cudalab metrics` lists the catalogue and the sets");
  }
  const std::vector<std::string> close = close_matches(name);
  if (!close.empty()) {
    message += ": did you mean ";
    for (std::size_t i = 0; i < close.size(); ++i) message += (i ? ", " : "") + close[i];
    message += "?";
  }
  throw usage_error(message, "`cudalab metrics` lists them; the sets: " + metric_set_list());
}

}  // namespace

std::string_view to_string(metric_exactness e) {
  switch (e) {
    case metric_exactness::exact:
      return "exact";
    case metric_exactness::per_binary:
      return "per-binary";
    case metric_exactness::tolerance:
      return "tolerance";
  }
  return "tolerance";
}

bool lacks_metric(std::string_view chip, std::string_view cupti_name) {
  const metric_info* m = find_metric(cupti_name);
  return m && std::find(m->missing_on.begin(), m->missing_on.end(), chip) != m->missing_on.end();
}

const metric_info* find_metric(std::string_view name) {
  if (name.empty()) return nullptr;
  for (const auto& m : metric_catalogue())
    if (m.short_name == name || m.cupti_name == name) return &m;
  return nullptr;
}

std::string metric_info::source() const {
  if (!derived()) return cupti_name;
  std::string text;
  for (const auto& term : derived_from)
    text +=
        (text.empty() ? (term.sign < 0 ? "-" : "") : (term.sign < 0 ? " - " : " + ")) + term.metric;
  return text;
}

std::vector<std::string> metric_set_names() {
  std::vector<std::string> names;
  for (const auto& set : metric_sets()) names.push_back(set.name);
  names.push_back("all");
  return names;
}

std::string metric_set_list() {
  std::string list;
  for (const auto& name : metric_set_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

namespace {

std::vector<std::string> short_names_where(bool (*wanted)(const metric_info&)) {
  std::vector<std::string> names;
  for (const auto& m : metric_catalogue())
    if (wanted(m)) names.push_back(m.short_name);
  return names;
}

}  // namespace

const std::vector<std::string>& metrics_held_to_model() {
  static const std::vector<std::string> names =
      short_names_where([](const metric_info& m) { return m.held_to_model(); });
  return names;
}

const std::vector<std::string>& traced_metrics() {
  static const std::vector<std::string> names =
      short_names_where([](const metric_info& m) { return m.traced; });
  return names;
}

std::map<std::string, double> model_values(const model::access_counts& counts) {
  std::map<std::string, double> values;
  for (const auto& m : metric_catalogue())
    if (m.held_to_model())
      if (const auto value = m.model(counts)) values[m.short_name] = *value;
  return values;
}

std::vector<std::string> resolve_metrics(std::string_view spec, std::string_view option) {
  std::vector<std::string> out;
  auto add_cupti = [&out](const std::string& cupti) {
    if (std::find(out.begin(), out.end(), cupti) == out.end()) out.push_back(cupti);
  };
  // A derived metric collects its terms (counted metrics: the catalogue never nests them).
  auto add = [&add_cupti](const metric_info& m) {
    if (!m.derived()) return add_cupti(m.cupti_name);
    for (const auto& term : m.derived_from) add_cupti(find_metric(term.metric)->cupti_name);
  };
  for (const std::string& name : split_list(option, spec)) {
    if (name == "all") {
      for (const auto& m : metric_catalogue()) add(m);
    } else if (const auto members = members_of(name); !members.empty()) {
      for (const metric_info* member : members) add(*member);
    } else if (const metric_info* m = find_metric(name)) {
      add(*m);
    } else if (looks_like_cupti_metric(name)) {
      add_cupti(name);  // checked against the chip when the session configures it
    } else {
      unknown_metric(name);
    }
  }
  return out;
}

std::vector<std::string> resolve_metric_names(const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& name : names)
    for (auto& cupti : resolve_metrics(name))
      if (std::find(out.begin(), out.end(), cupti) == out.end()) out.push_back(std::move(cupti));
  return out;
}

std::string display_name(std::string_view cupti_name) {
  if (const metric_info* m = find_metric(cupti_name)) return m->short_name;
  return std::string(cupti_name);
}

namespace {

std::optional<double> derived_value(const std::map<std::string, double>& totals,
                                    const metric_info& m) {
  double value = 0;
  for (const auto& term : m.derived_from) {
    const auto it = totals.find(find_metric(term.metric)->cupti_name);
    if (it == totals.end()) return std::nullopt;
    value += term.sign * it->second;
  }
  return value;
}

}  // namespace

void add_derived_metrics(std::map<std::string, double>& totals) {
  for (const auto& m : metric_catalogue())
    if (m.derived())
      if (const auto value = derived_value(totals, m)) totals[m.key()] = *value;
}

std::optional<double> metric_value(const std::map<std::string, double>& totals,
                                   std::string_view metric) {
  const metric_info* m = find_metric(metric);
  const auto it = totals.find(m ? m->key() : std::string(metric));
  if (it != totals.end()) return it->second;
  if (m && m->derived()) return derived_value(totals, *m);
  return std::nullopt;
}

}  // namespace cudalab
