#include "cudalab/child_process.hpp"

#include "cudalab/error.hpp"
#include "cudalab/unique_fd.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

extern char** environ;

namespace cudalab {
namespace {

// posix_spawn's file actions and attributes, destroyed with their owner.
class spawn_setup {
 public:
  spawn_setup() {
    ::posix_spawn_file_actions_init(&m_actions);
    ::posix_spawnattr_init(&m_attributes);
  }
  ~spawn_setup() {
    ::posix_spawn_file_actions_destroy(&m_actions);
    ::posix_spawnattr_destroy(&m_attributes);
  }
  spawn_setup(const spawn_setup&) = delete;  // one owner destroys them
  spawn_setup& operator=(const spawn_setup&) = delete;
  posix_spawn_file_actions_t* actions() { return &m_actions; }
  posix_spawnattr_t* attributes() { return &m_attributes; }

 private:
  posix_spawn_file_actions_t m_actions;
  posix_spawnattr_t m_attributes;
};

std::vector<std::string> environment_for(const child_spec& spec) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e; ++e) {
    const std::string entry = *e;
    const auto eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = entry.substr(0, eq);
    if (spec.drop_environment && spec.drop_environment(name)) continue;
    env[name] = entry.substr(eq + 1);
  }
  for (const auto& [name, value] : spec.set_environment) env[name] = value;
  std::vector<std::string> out;
  for (const auto& [name, value] : env) out.push_back(name + "=" + value);
  return out;
}

// A descriptor that becomes readable when `pid` ends (pidfd_open, Linux 5.3 and later); none
// where the kernel lacks it, and the wait then polls waitpid.
unique_fd pid_descriptor(pid_t pid) {
#ifdef SYS_pidfd_open
  return unique_fd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
#else
  (void)pid;
  return unique_fd();
#endif
}

}  // namespace

std::string child_result::describe() const {
  if (timed_out) return "killed at its deadline";
  if (signal) return "signal " + std::to_string(signal);
  return "exit " + std::to_string(exit_code);
}

child_result run_child(const child_spec& spec) {
  if (spec.argv.empty()) throw error("run_child: no program");
  spawn_setup setup;
  // No input: a child that read stdin would wait for a terminal nobody types in.
  ::posix_spawn_file_actions_addopen(setup.actions(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  unique_fd read_end, write_end;
  if (spec.capture_output) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0)
      throw error(std::string("cannot make a pipe for ") + spec.argv[0] + ": " +
                  std::strerror(errno));
    read_end.reset(ends[0]);
    write_end.reset(ends[1]);
  }
  const int output = spec.capture_output ? write_end.get() : spec.output_fd;
  if (output >= 0) {
    ::posix_spawn_file_actions_adddup2(setup.actions(), output, STDOUT_FILENO);
    ::posix_spawn_file_actions_adddup2(setup.actions(), output, STDERR_FILENO);
  }
  // Its own process group, so that a deadline kills whatever it started too.
  ::posix_spawnattr_setflags(setup.attributes(), POSIX_SPAWN_SETPGROUP);
  ::posix_spawnattr_setpgroup(setup.attributes(), 0);

  std::vector<char*> args;
  for (const std::string& a : spec.argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> environment = environment_for(spec);
  std::vector<char*> env;
  for (std::string& e : environment) env.push_back(e.data());
  env.push_back(nullptr);
  pid_t pid = 0;
  if (const int failed = ::posix_spawn(&pid, spec.argv[0].c_str(), setup.actions(),
                                       setup.attributes(), args.data(), env.data());
      failed != 0)
    throw error("cannot start " + spec.argv[0] + ": " + std::strerror(failed));
  write_end.reset();  // the child holds its copy; the read end sees the end when it exits

  child_result result;
  const auto start = std::chrono::steady_clock::now();
  const auto remaining_ms = [&]() -> int {
    if (spec.deadline_seconds <= 0) return -1;
    const auto spent = std::chrono::steady_clock::now() - start;
    const auto left = std::chrono::seconds(spec.deadline_seconds) - spent;
    return static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(left).count()));
  };
  const auto kill_group = [&] {
    ::kill(-pid, SIGKILL);
    result.timed_out = true;
  };
  // The output first (the child may write more than a pipe holds), then the end.
  if (read_end) {
    char buffer[65536];
    for (;;) {
      pollfd p{read_end.get(), POLLIN, 0};
      const int ready = ::poll(&p, 1, remaining_ms());
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        kill_group();
        break;
      }
      const ssize_t n = ::read(read_end.get(), buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      result.output.append(buffer, static_cast<std::size_t>(n));
    }
  }
  const unique_fd ends = result.timed_out ? unique_fd() : pid_descriptor(pid);
  int status = 0;
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, result.timed_out ? 0 : WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno == EINTR) continue;
    if (done < 0) {
      ::kill(-pid, SIGKILL);
      throw error("waiting for " + spec.argv[0] + ": " + std::strerror(errno));
    }
    const int wait_ms = remaining_ms();
    if (wait_ms == 0) {
      kill_group();
      continue;  // now waits without WNOHANG
    }
    if (ends) {
      pollfd p{ends.get(), POLLIN, 0};
      if (::poll(&p, 1, wait_ms) < 0 && errno != EINTR)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string this_executable() {
  std::error_code e;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", e);
  if (e) throw error("cannot find this program's path (/proc/self/exe): " + e.message());
  return path.string();
}

}  // namespace cudalab
