// Refusing runs whose predictions the model cannot finish in about 10 s (model_budget.hpp).
#include "cudalab/model_budget.hpp"

#include "cudalab/check.hpp"

#include <cstdio>
#include <string>

namespace cudalab {
namespace {

double cost_of(const model_budget_point& p) {
  if (!p.which || !p.which->predict || !p.which->model_cost) return 0;
  return p.which->model_cost(p.config);
}

std::string scientific(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1e", v);
  return buf;
}

// "about 40 s", "about 12 min", "about 7 h" on 2 cores.
std::string duration_on_two_cores(double warp_instructions) {
  const double seconds = warp_instructions / (2 * model_warp_instructions_per_core_second);
  char buf[48];
  if (seconds < 120)
    std::snprintf(buf, sizeof buf, "about %.0f s on 2 cores", seconds);
  else if (seconds < 7200)
    std::snprintf(buf, sizeof buf, "about %.0f min on 2 cores", seconds / 60);
  else
    std::snprintf(buf, sizeof buf, "about %.0f h on 2 cores", seconds / 3600);
  return buf;
}

std::string describe(const model_budget_point& p) {
  std::string s =
      "--size " + std::to_string(p.config.size) + " --block " + std::to_string(p.config.block);
  if (p.which->sweep) s += " --sweep " + std::to_string(p.config.param);
  return s;
}

}  // namespace

void check_point_count(const lab& l, std::size_t points) {
  if (points <= max_points_a_run) return;
  // One line within 120 columns for any lab and count: bad input gets one line.
  throw usage_error(std::to_string(points) + " points of " + l.id + ", at most " +
                    std::to_string(max_points_a_run) +
                    " a run (a row each): narrow --size, --block or --sweep");
}

double model_cost_of(const std::vector<model_budget_point>& points) {
  double total = 0;
  for (const auto& p : points) total += cost_of(p);
  return total;
}

void check_model_budget(const lab& l, const std::vector<model_budget_point>& points,
                        double budget) {
  double total = 0, most = -1;
  const model_budget_point* costliest = nullptr;
  for (const auto& p : points) {
    const double cost = cost_of(p);
    total += cost;
    if (cost > most) {
      most = cost;
      costliest = &p;
    }
  }
  if (total <= budget || !costliest) return;
  // The refusal in one line within 120 columns, what to change in the fix under it.
  const std::string limit =
      "the model's limit is " + scientific(budget) + " (" + duration_on_two_cores(budget) + "): ";
  if (most > budget)
    throw usage_error(costliest->which->name + " at " + describe(*costliest) + ": predicting it" +
                          " would simulate " + scientific(most) + " warp instructions",
                      limit + "use a smaller --size");
  throw usage_error(
      "predicting " + std::to_string(points.size()) + " points of " + l.id + " would simulate " +
          scientific(total) + " warp instructions (" + duration_on_two_cores(total) + ")",
      limit + "use fewer sizes, blocks or sweep values, or --variant (the costliest: " +
          costliest->which->name + " at " + describe(*costliest) + ")");
}

}  // namespace cudalab
