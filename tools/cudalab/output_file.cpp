#include "output_file.hpp"

#include "cudalab/check.hpp"
#include "cudalab/user_text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>

namespace cudalab::tool {
namespace {

// The temporary file a commit is writing, for the signal handler (async-signal-safe: a fixed
// buffer and unlink only).
char pending_temp[PATH_MAX + 1] = {};
volatile std::sig_atomic_t pending = 0;

extern "C" void remove_pending_temp(int signal_number) {
  if (pending) ::unlink(pending_temp);
  std::signal(signal_number, SIG_DFL);
  std::raise(signal_number);
}

// Removes the temporary file on SIGINT, SIGTERM and SIGHUP while it exists, and restores the
// previous handlers afterwards.
class temp_file_guard {
 public:
  explicit temp_file_guard(const std::string& temp) {
    std::strncpy(pending_temp, temp.c_str(), PATH_MAX);
    pending = 1;
    for (int i = 0; i < 3; ++i) m_previous[i] = std::signal(signals[i], remove_pending_temp);
  }
  ~temp_file_guard() {
    for (int i = 0; i < 3; ++i) std::signal(signals[i], m_previous[i]);
    if (pending) ::unlink(pending_temp);
    pending = 0;
  }
  void keep() { pending = 0; }                       // renamed into place: nothing to remove
  temp_file_guard(const temp_file_guard&) = delete;  // one guard per temporary file
  temp_file_guard& operator=(const temp_file_guard&) = delete;

 private:
  static constexpr int signals[3] = {SIGINT, SIGTERM, SIGHUP};
  void (*m_previous[3])(int) = {};
};

// A file descriptor closed on every path.
class fd_owner {
 public:
  explicit fd_owner(int fd) : m_fd(fd) {}
  ~fd_owner() {
    if (m_fd >= 0) ::close(m_fd);
  }
  fd_owner(const fd_owner&) = delete;  // owns the descriptor
  fd_owner& operator=(const fd_owner&) = delete;
  int get() const { return m_fd; }
  int release() {
    const int fd = m_fd;
    m_fd = -1;
    return fd;
  }

 private:
  int m_fd;
};

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_name_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The temporary name beside `target`: ".<name>.XXXXXX" (mkstemp fills the Xs).
std::string temp_template(const std::string& target) {
  const std::string dir = directory_of(target);
  return (dir == "/" ? "" : dir) + "/." + base_name_of(target) + ".XXXXXX";
}
constexpr std::size_t temp_extra = 8;  // the leading dot and ".XXXXXX"

void write_all(int fd, std::string_view text, const std::string& shown_path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      throw error("--output '" + shown_path + "': write failed (" + std::strerror(errno) + ")");
    done += static_cast<std::size_t>(n);
  }
}

mode_t new_file_mode() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

int named_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    if (path.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string number = path.substr(prefix.size());
    if (number.empty() || number.size() > 9 ||
        number.find_first_not_of("0123456789") != std::string::npos)
      return -1;
    return std::stoi(number);
  }
  return -1;
}

output_file::output_file(std::string path) : m_path(std::move(path)) {
  const std::string name = shown(m_path);
  const auto refuse = [&](const std::string& why) {
    throw usage_error("--output '" + name + "': " + why);
  };
  if (m_path.find_first_not_of(" \t") == std::string::npos)
    refuse(m_path.empty() ? "empty file name" : "a name of blanks only");
  if (m_path.back() == '/') refuse("names a directory, not a file");
  // A descriptor the shell opened (`>> log`, a pipe): written through it, never renamed over.
  if (const int fd = named_descriptor(m_path); fd >= 0) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0) refuse("descriptor " + std::to_string(fd) + " is not open in this process");
    if ((flags & O_ACCMODE) == O_RDONLY)
      refuse("descriptor " + std::to_string(fd) + " is open for reading only");
    m_descriptor = fd;
    m_regular = false;
    return;
  }
  struct stat st {};
  if (::stat(m_path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) refuse("is a directory: name a file inside it");
    char resolved[PATH_MAX + 1];
    if (!::realpath(m_path.c_str(), resolved))
      refuse(std::string("cannot resolve the path (") + std::strerror(errno) + ")");
    m_target = resolved;
    m_regular = S_ISREG(st.st_mode);
    // Root may write any file; a file without a write bit was still meant to stay as it is.
    if (::access(m_target.c_str(), W_OK) != 0 || (m_regular && (st.st_mode & 0222) == 0))
      refuse("the file is not writable (read-only): make it writable or choose another name");
  } else if (errno != ENOENT) {
    refuse(std::string("cannot write there (") + std::strerror(errno) + ")");
  } else {
    m_target = m_path;
    const std::string dir = directory_of(m_target);
    struct stat dir_st {};
    if (::stat(dir.c_str(), &dir_st) != 0)
      refuse("the directory '" + shown(dir) + "' does not exist");
    if (!S_ISDIR(dir_st.st_mode)) refuse("'" + shown(dir) + "' is not a directory");
  }
  if (m_regular) {
    const std::string dir = directory_of(m_target);
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      refuse("cannot write in the directory '" + shown(dir) + "' (" + std::strerror(errno) + ")");
    const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
    const std::size_t limit = name_max > 0 ? static_cast<std::size_t>(name_max) : NAME_MAX;
    if (base_name_of(m_target).size() + temp_extra > limit)
      refuse("the file name is too long (at most " + std::to_string(limit - temp_extra) +
             " characters here, to leave room for the temporary file)");
    if (temp_template(m_target).size() > PATH_MAX) refuse("the path is too long");
  }
}

void output_file::commit(std::string_view text) {
  const std::string name = shown(m_path);
  if (m_descriptor >= 0) {  // the caller's descriptor: written in place, left open
    write_all(m_descriptor, text, name);
    return;
  }
  if (!m_regular) {
    fd_owner fd(::open(m_target.c_str(), O_WRONLY | O_NOCTTY));
    if (fd.get() < 0)
      throw error("--output '" + name + "': cannot open (" + std::strerror(errno) + ")");
    write_all(fd.get(), text, name);
    if (::close(fd.release()) != 0)
      throw error("--output '" + name + "': write failed (" + std::strerror(errno) + ")");
    return;
  }
  struct stat st {};
  const bool exists = ::stat(m_target.c_str(), &st) == 0;
  const mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();

  std::string temp = temp_template(m_target);
  fd_owner fd(::mkstemp(temp.data()));
  if (fd.get() < 0)
    throw error("--output '" + name + "': cannot create a temporary file beside it (" +
                std::strerror(errno) + ")");
  temp_file_guard guard(temp);
  write_all(fd.get(), text, name);
  if (::fchmod(fd.get(), mode) != 0 || ::fsync(fd.get()) != 0 || ::close(fd.release()) != 0)
    throw error("--output '" + name + "': write failed (" + std::strerror(errno) + ")");
  if (::rename(temp.c_str(), m_target.c_str()) != 0)
    throw error("--output '" + name + "': rename failed (" + std::strerror(errno) + ")");
  guard.keep();
}

}  // namespace cudalab::tool
