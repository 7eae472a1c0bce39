// The model budget: a run whose predictions would simulate more than the limit is refused
// with one line naming the cost, the limit and what to change; one within it is not.
#include "cudalab/model_budget.hpp"
#include "cudalab/check.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudalab {
namespace {

// A variant whose prediction costs `per_element` warp instructions an element.
variant costly(std::string name, double per_element) {
  variant v;
  v.name = std::move(name);
  v.predict = [](const launch_config&) { return model::access_counts{}; };
  v.model_cost = [per_element](const launch_config& c) {
    return per_element * static_cast<double>(c.size);
  };
  return v;
}

lab lab_of(std::vector<variant> variants) {
  lab l;
  l.id = "99-test";
  l.variants = std::move(variants);
  return l;
}

std::string refusal(const lab& l, const std::vector<model_budget_point>& points, double budget) {
  try {
    check_model_budget(l, points, budget);
  } catch (const usage_error& e) {
    return std::string(e.what()) + "\nfix: " + e.hint();
  }
  return {};
}

TEST(model_budget, a_run_at_the_limit_passes_and_one_past_it_is_refused) {
  const lab l = lab_of({costly("walk", 1.0)});
  const variant& v = l.variants[0];
  EXPECT_EQ(refusal(l, {{&v, {1000, 256, 0}}}, 1000), "");
  const std::string why = refusal(l, {{&v, {1001, 256, 0}}}, 1000);
  EXPECT_EQ(why.rfind("walk at --size 1001 --block 256: predicting it would simulate 1.0e+03", 0),
            0u)
      << why;
  EXPECT_NE(
      why.find("\nfix: the model's limit is 1.0e+03 (about 0 s on 2 cores): use a smaller --size"),
      std::string::npos)
      << why;
}

TEST(model_budget, many_cheap_points_add_up_and_the_costliest_is_named) {
  const lab l = lab_of({costly("cheap", 1.0), costly("dear", 3.0)});
  std::vector<model_budget_point> points;
  for (std::size_t size = 1; size <= 100; ++size) points.push_back({&l.variants[0], {size, 32, 0}});
  points.push_back({&l.variants[1], {50, 64, 0}});
  EXPECT_EQ(model_cost_of(points), 5050.0 + 150.0);
  EXPECT_EQ(refusal(l, points, 5200), "");
  const std::string why = refusal(l, points, 5199);
  EXPECT_NE(why.find("predicting 101 points of 99-test would simulate 5.2e+03"), std::string::npos)
      << why;
  EXPECT_NE(why.find("use fewer sizes, blocks or sweep values, or --variant (the costliest: "
                     "dear at --size 50 --block 64"),
            std::string::npos)
      << why;
}

TEST(model_budget, variants_without_a_model_or_a_cost_are_free) {
  variant no_model = costly("no_model", 1.0);
  no_model.predict = nullptr;
  variant no_cost = costly("no_cost", 1.0);
  no_cost.model_cost = nullptr;
  const lab l = lab_of({no_model, no_cost});
  EXPECT_EQ(
      model_cost_of({{&l.variants[0], {1u << 30, 256, 0}}, {&l.variants[1], {1u << 30, 256, 0}}}),
      0.0);
}

}  // namespace
}  // namespace cudalab
