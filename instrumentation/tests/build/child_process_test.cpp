// run_child: the one way the kit starts another program. Each case uses /bin/sh as the child.
#include "cudalab/child_process.hpp"
#include "cudalab/error.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>

namespace cudalab {
namespace {

child_result shell(const std::string& script, child_spec spec = {}) {
  spec.argv = {"/bin/sh", "-c", script};
  return run_child(spec);
}

TEST(child_process, reports_the_exit_code_and_captures_both_streams) {
  child_spec spec;
  spec.capture_output = true;
  const child_result r = shell("echo out; echo err >&2; exit 3", spec);
  EXPECT_TRUE(r.exited_with(3)) << r.describe();
  EXPECT_EQ(r.output, "out\nerr\n");
  EXPECT_EQ(r.describe(), "exit 3");
}

TEST(child_process, captures_more_than_a_pipe_holds) {
  child_spec spec;
  spec.capture_output = true;
  const child_result r = shell("head -c 1000000 /dev/zero | tr '\\\\0' x", spec);
  EXPECT_TRUE(r.exited_with(0)) << r.describe();
  EXPECT_EQ(r.output.size(), 1000000u);
}

TEST(child_process, a_signal_is_reported_as_such) {
  const child_result r = shell("kill -USR1 $$");
  EXPECT_EQ(r.signal, SIGUSR1);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_FALSE(r.exited_with(0));
}

TEST(child_process, the_deadline_kills_the_whole_process_group) {
  child_spec spec;
  spec.capture_output = true;
  spec.deadline_seconds = 1;
  const auto start = std::chrono::steady_clock::now();
  // A grandchild holds the pipe open too: only killing the group ends the wait.
  const child_result r = shell("sleep 30 & sleep 30", spec);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(seconds, 10.0);
  EXPECT_EQ(r.describe(), "killed at its deadline");
}

TEST(child_process, the_environment_is_edited_and_stdin_is_empty) {
  ::setenv("CUDALAB_CHILD_TEST_DROPPED", "1", 1);
  child_spec spec;
  spec.capture_output = true;
  spec.set_environment = {{"CUDALAB_CHILD_TEST_SET", "yes"}};
  spec.drop_environment = [](const std::string& name) {
    return name == "CUDALAB_CHILD_TEST_DROPPED";
  };
  const child_result r =
      shell("echo \"${CUDALAB_CHILD_TEST_SET}-${CUDALAB_CHILD_TEST_DROPPED:-none}\"; cat; echo end",
            spec);
  ::unsetenv("CUDALAB_CHILD_TEST_DROPPED");
  EXPECT_EQ(r.output, "yes-none\nend\n");
}

TEST(child_process, a_program_that_cannot_start_is_an_error_or_exit_127) {
  child_spec spec;
  spec.argv = {"/nonexistent/program"};
  try {
    const child_result r = run_child(spec);
    EXPECT_EQ(r.exit_code, 127) << r.describe();  // glibc reports a failed exec as exit 127
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/program"), std::string::npos);
  }
}

}  // namespace
}  // namespace cudalab
