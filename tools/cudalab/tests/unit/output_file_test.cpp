// --output's owner (output_file.hpp) where the shell cannot reach: signals that arrive while the
// report is being written (the writer raises them itself, mid-report), ownership and hard links,
// kernel files, and names as long as the file system allows.
#include "output_file.hpp"

#include "cudalab/check.hpp"

#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace cudalab::tool {
namespace {

namespace fs = std::filesystem;

class output_file_test : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "cudalab_output_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    m_dir = pattern;
  }
  void TearDown() override { fs::remove_all(m_dir); }
  std::string path(const std::string& name) const { return m_dir + "/" + name; }
  // Every file of the folder but `keep`: a temporary file left behind shows up here.
  std::vector<std::string> others(const std::string& keep) const {
    std::vector<std::string> found;
    for (const auto& e : fs::directory_iterator(m_dir))
      if (e.path().filename() != keep) found.push_back(e.path().filename());
    return found;
  }
  std::string m_dir;
};

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// Half a report, then the signal, then the rest.
auto raising(int signal_number) {
  return [signal_number](std::ostream& out) {
    out << std::string(200000, 'a');
    out.flush();
    std::raise(signal_number);
    out << std::string(200000, 'b');
  };
}

TEST_F(output_file_test, a_signal_the_caller_ignores_stays_ignored_and_the_report_is_whole) {
  write(path("out.csv"), "old\n");
  for (const int s : {SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGPIPE}) {
    const auto previous = std::signal(s, SIG_IGN);
    output_file file(path("out.csv"));
    file.commit(raising(s));
    std::signal(s, previous);
    EXPECT_EQ(read(path("out.csv")), std::string(200000, 'a') + std::string(200000, 'b')) << s;
    EXPECT_TRUE(others("out.csv").empty()) << s;
  }
}

TEST_F(output_file_test, a_signal_that_ends_the_run_mid_report_leaves_the_old_file_and_no_temp) {
  for (const int s : {SIGQUIT, SIGPIPE, SIGUSR1, SIGUSR2, SIGHUP, SIGTERM, SIGALRM}) {
    write(path("out.csv"), "old\n");
    ::fflush(nullptr);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      std::signal(s, SIG_DFL);
      try {
        output_file file(path("out.csv"));
        file.commit(raising(s));
      } catch (...) {
      }
      ::_exit(0);  // not reached: the signal ends the child
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << s << ": the child exited " << status;
    EXPECT_EQ(WTERMSIG(status), s);
    EXPECT_EQ(read(path("out.csv")), "old\n") << s;
    EXPECT_TRUE(others("out.csv").empty()) << "signal " << s << " left " << others("out.csv")[0];
  }
}

TEST_F(output_file_test, a_file_with_several_names_keeps_them_all) {
  write(path("out.csv"), "old\n");
  ASSERT_EQ(::link(path("out.csv").c_str(), path("other-name.csv").c_str()), 0);
  output_file(path("out.csv")).commit("new\n");
  EXPECT_EQ(read(path("out.csv")), "new\n");
  EXPECT_EQ(read(path("other-name.csv")), "new\n");
  struct stat st {};
  ASSERT_EQ(::stat(path("out.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_nlink, 2u);
}

TEST_F(output_file_test, root_writing_a_users_file_leaves_it_the_users) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (only root can write another user's file)";
  write(path("theirs.csv"), "old\n");
  ASSERT_EQ(::chown(path("theirs.csv").c_str(), 65534, 65534), 0);
  ASSERT_EQ(::chmod(path("theirs.csv").c_str(), 0640), 0);
  output_file(path("theirs.csv")).commit("new\n");
  struct stat st {};
  ASSERT_EQ(::stat(path("theirs.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 65534u);
  EXPECT_EQ(st.st_gid, 65534u);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(read(path("theirs.csv")), "new\n");
  EXPECT_TRUE(others("theirs.csv").empty());
}

TEST_F(output_file_test, kernel_files_are_refused_before_any_work) {
  for (const char* kernel_file :
       {"/proc/sys/kernel/hostname", "/sys/kernel/profiling", "/proc/new-report.csv"}) {
    try {
      output_file file(kernel_file);
      ADD_FAILURE() << kernel_file << " was accepted";
    } catch (const usage_error& e) {
      EXPECT_NE(std::string(e.what()).find("/proc or /sys"), std::string::npos) << e.what();
    }
  }
}

TEST_F(output_file_test, names_as_long_as_the_file_system_allows_are_written) {
  const std::string longest(255, 'n');
  output_file(path(longest)).commit("report\n");
  EXPECT_EQ(read(path(longest)), "report\n");
  EXPECT_TRUE(others(longest).empty());
  EXPECT_THROW(output_file(path(std::string(256, 'n'))), usage_error);
}

}  // namespace
}  // namespace cudalab::tool
