// background_results: every item computed once, in index order of hand-out, exceptions carried
// to take(), and a pool destroyed early abandons what it has not started.
#include "../src/background_results.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

namespace cudalab {
namespace {

TEST(background_results, every_item_is_computed_once_and_taken_in_order) {
  std::atomic<int> calls{0};
  background_results<std::size_t> squares(
      100,
      [&](std::size_t i) {
        ++calls;
        return i * i;
      },
      4);
  for (std::size_t i = 0; i < 100; ++i) EXPECT_EQ(squares.take(i), i * i);
  EXPECT_EQ(calls.load(), 100);
}

TEST(background_results, an_exception_reaches_take_of_its_item_only) {
  background_results<int> items(
      3,
      [](std::size_t i) -> int {
        if (i == 1) throw std::runtime_error("item 1 failed");
        return static_cast<int>(i);
      },
      2);
  EXPECT_EQ(items.take(0), 0);
  EXPECT_THROW(items.take(1), std::runtime_error);
  EXPECT_EQ(items.take(2), 2);
}

TEST(background_results, destroying_the_pool_early_abandons_items_not_started) {
  std::atomic<int> started{0};
  {
    background_results<int> slow(
        1000,
        [&](std::size_t) {
          ++started;
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          return 0;
        },
        2);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_LT(started.load(), 1000);
}

TEST(background_results, zero_items_start_no_thread_and_one_worker_still_finishes) {
  background_results<int> none(0, [](std::size_t) { return 1; });
  background_results<int> one(
      5, [](std::size_t i) { return static_cast<int>(i) + 1; }, 1);
  EXPECT_EQ(one.take(4), 5);
}

}  // namespace
}  // namespace cudalab
