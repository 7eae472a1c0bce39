// Running a variant under compute-sanitizer in a child process (sanitizer_run.hpp).
#include "sanitizer_run.hpp"

#include "cudalab/check.hpp"
#include "cudalab/trace/tracer_support.hpp"
#include "cudalab/unique_fd.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace cudalab::labs {
namespace {

bool is_executable(const std::string& path) {
  return !path.empty() && ::access(path.c_str(), X_OK) == 0;
}

// A temporary file, removed with its owner.
class temp_file {
 public:
  temp_file() {
    const char* dir = std::getenv("TMPDIR");
    m_path = std::string(dir && *dir ? dir : "/tmp") + "/cudalab-sanitizer-XXXXXX";
    m_fd.reset(::mkstemp(m_path.data()));
    if (!m_fd)
      throw error("cannot create a temporary file in " + m_path + ": " + std::strerror(errno));
  }
  ~temp_file() { ::unlink(m_path.c_str()); }
  temp_file(const temp_file&) = delete;  // one owner removes the file
  temp_file& operator=(const temp_file&) = delete;
  const std::string& path() const { return m_path; }
  int fd() const { return m_fd.get(); }
  std::string contents() const {
    std::ifstream in(m_path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::string m_path;
  unique_fd m_fd;  // closed after the destructor unlinks the file (an open file may be unlinked)
};

// posix_spawn's file actions, destroyed with their owner.
class spawn_actions {
 public:
  spawn_actions() { ::posix_spawn_file_actions_init(&m_actions); }
  ~spawn_actions() { ::posix_spawn_file_actions_destroy(&m_actions); }
  spawn_actions(const spawn_actions&) = delete;  // one owner destroys them
  spawn_actions& operator=(const spawn_actions&) = delete;
  posix_spawn_file_actions_t* get() { return &m_actions; }

 private:
  posix_spawn_file_actions_t m_actions;
};

}  // namespace

std::string find_compute_sanitizer() {
  if (const char* set = std::getenv("COMPUTE_SANITIZER"); set && is_executable(set)) return set;
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');)
      if (!dir.empty() && is_executable(dir + "/compute-sanitizer"))
        return dir + "/compute-sanitizer";
  }
  const std::string cuda = "/usr/local/cuda/bin/compute-sanitizer";
  return is_executable(cuda) ? cuda : std::string();
}

std::string how_to_get_compute_sanitizer() {
  return "compute-sanitizer comes with the CUDA Toolkit (the cuda-sanitizer package, in "
         "/usr/local/cuda/bin); put it on PATH or name it in COMPUTE_SANITIZER";
}

std::string check_runner_program() {
  if (const char* set = std::getenv("CUDALAB_CHECK_RUNNER"); set && *set) return set;
  std::string self(4096, '\0');
  const ssize_t length = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (length <= 0) throw error("cannot find this program's own path (/proc/self/exe)");
  self.resize(static_cast<std::size_t>(length));
  return self;
}

namespace {

// The child's environment: this process's, less the variables that inject cudalab's memory
// tracer. compute-sanitizer injects itself into the program it checks; with the tracer named in
// CUDA_INJECTION64_PATH too (a check run under --trace, or graded from the trace where counters
// are refused), it stops with "Target application terminated before first instrumented API
// call" (measured on the H100).
std::vector<std::string> child_environment() {
  std::vector<std::string> kept;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string e = *entry;
    if (trace::injects_the_tracer(e.substr(0, e.find('=')))) continue;
    kept.push_back(e);
  }
  return kept;
}

}  // namespace

child_result run_captured(const std::vector<std::string>& argv) {
  if (argv.empty()) throw error("run_captured: no program");
  temp_file log;
  spawn_actions actions;
  ::posix_spawn_file_actions_adddup2(actions.get(), log.fd(), STDOUT_FILENO);
  ::posix_spawn_file_actions_adddup2(actions.get(), log.fd(), STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> environment = child_environment();
  std::vector<char*> env;
  for (std::string& e : environment) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  if (const int failed =
          ::posix_spawn(&pid, argv[0].c_str(), actions.get(), nullptr, args.data(), env.data());
      failed != 0)
    throw error("cannot start " + argv[0] + ": " + std::strerror(failed));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw error("waiting for " + argv[0] + ": " + std::strerror(errno));
  child_result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.output = log.contents();
  return r;
}

sanitized_run run_under_sanitizer(const std::string& sanitizer, const std::string& tool,
                                  const std::string& lab, const std::string& variant,
                                  std::size_t size) {
  std::vector<std::string> argv{sanitizer, "--tool", tool == "leak" ? "memcheck" : tool};
  if (tool == "leak") argv.insert(argv.end(), {"--leak-check", "full"});
  argv.insert(argv.end(),
              {"--print-limit", "20", check_runner_program(), "run", lab, "--variant", variant,
               "--no-counters", "--warmup", "0", "--repeat", "1", "--size", std::to_string(size)});
  sanitized_run run;
  run.tool = tool;
  run.child = run_captured(argv);
  run.report = parse_sanitizer_output(run.child.output);
  return run;
}

}  // namespace cudalab::labs
