// The check the fake-backend and the GPU counter_session tests share: a metric the chip does not
// know is the user's mistake, reported as a cudalab::error naming it, never as counters being
// unavailable. Include only from test sources (it needs GoogleTest).
#pragma once

#include "cudalab/counters.hpp"
#include "cudalab/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab::testing {

// The unknown metric both tests ask for.
inline const char* const unknown_metric = "smsp__no_such_counter.sum";

// make_session() constructs a session whose metrics include unknown_metric. It must throw a
// cudalab::error that is not counters_unavailable and whose message names the metric in quotes;
// check_message(message) then states what else the message must say.
template <class MakeSession, class CheckMessage>
void expect_unknown_metric_error(MakeSession&& make_session, CheckMessage&& check_message) {
  try {
    make_session();
    FAIL() << "an unknown metric was accepted";
  } catch (const counters_unavailable& e) {
    FAIL() << "an unknown metric is the user's mistake, not unavailability: " << e.what();
  } catch (const error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'" + std::string(unknown_metric) + "'"), std::string::npos) << what;
    check_message(what);
  }
}

}  // namespace cudalab::testing
