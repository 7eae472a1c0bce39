// The access model's budget: a run whose predictions would keep the learner waiting is refused
// before any work starts, with the limit and the reason, instead of running for minutes with no
// output.
//
// Each variant estimates what its prediction costs (variant::model_cost, in warp instructions
// the model simulates); the run's cost is the sum over its points, since all of them are
// predicted before the table is complete. The model simulates 5 to 10 million warp
// instructions a second on one core, so the limit of 1e8 is at most about 10 s on a 2-core
// machine (scripts/bench.sh times the labs' default runs). The labs' models walk one block of each
// repeating class (cudalab/model/block_classes.hpp), so a single point costs the same at any size
// the GPU can hold; what reaches the limit is a run of tens of thousands of points.
#pragma once

#include "cudalab/lab.hpp"

#include <cstddef>
#include <vector>

namespace cudalab {

// Warp instructions the predictions of one run may simulate.
inline constexpr double model_budget_warp_instructions = 1e8;
// What the model simulates a second on one core at the least, for the estimates in the refusal.
inline constexpr double model_warp_instructions_per_core_second = 5e6;

struct model_budget_point {
  const variant* which = nullptr;
  launch_config config;
};

// The estimated cost of predicting every point (0 for variants without model_cost).
double model_cost_of(const std::vector<model_budget_point>& points);

// Throws usage_error (one line: the cost, the limit, the costliest point and what to change)
// when predicting these points of lab `l` would simulate more than `budget`.
void check_model_budget(const lab& l, const std::vector<model_budget_point>& points,
                        double budget = model_budget_warp_instructions);

// The points one run may hold: each is a row kept in memory, printed and written, and past a
// few thousand no table is read; 20,000 keeps a run's memory under a few hundred MB.
inline constexpr std::size_t max_points_a_run = 20000;

// Throws usage_error (one line: how many, the limit, why, what to change) when `points` is
// more than max_points_a_run.
void check_point_count(const lab& l, std::size_t points);

// Both checks for the runner's points (anything with `which` and `config`): the model's
// budget first, then the number of points.
template <class Points>
void check_model_budget(const lab& l, const Points& points) {
  std::vector<model_budget_point> items;
  items.reserve(points.size());
  for (const auto& p : points) items.push_back({p.which, p.config});
  check_model_budget(l, items);
  check_point_count(l, points.size());
}

}  // namespace cudalab
