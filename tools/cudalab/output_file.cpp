#include "output_file.hpp"

#include "cudalab/check.hpp"
#include "cudalab/unique_fd.hpp"
#include "cudalab/user_text.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <streambuf>
#include <vector>

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

// The signals whose default action ends the program: each would leave the temporary file.
constexpr int ending_signals[] = {SIGINT,  SIGTERM, SIGHUP,    SIGQUIT, SIGPIPE, SIGUSR1,
                                  SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ};
constexpr std::size_t ending_signal_count = sizeof ending_signals / sizeof ending_signals[0];

// Removes the temporary file when one of ending_signals arrives while it exists, and restores
// the previous dispositions afterwards. A signal the caller ignores (nohup, `trap '' HUP`) or
// handles itself is left as it is: only the default action, ending the program, is replaced.
class temp_file_guard {
 public:
  explicit temp_file_guard(const std::string& temp) {
    std::strncpy(pending_temp, temp.c_str(), PATH_MAX);
    pending = 1;
    for (std::size_t i = 0; i < ending_signal_count; ++i) {
      struct sigaction ours {};
      ours.sa_handler = remove_pending_temp;
      sigemptyset(&ours.sa_mask);
      m_replaced[i] = ::sigaction(ending_signals[i], nullptr, &m_previous[i]) == 0 &&
                      m_previous[i].sa_handler == SIG_DFL &&
                      ::sigaction(ending_signals[i], &ours, nullptr) == 0;
    }
  }
  ~temp_file_guard() {
    for (std::size_t i = 0; i < ending_signal_count; ++i)
      if (m_replaced[i]) ::sigaction(ending_signals[i], &m_previous[i], nullptr);
    if (pending) ::unlink(pending_temp);
    pending = 0;
  }
  void keep() { pending = 0; }                       // renamed into place: nothing to remove
  temp_file_guard(const temp_file_guard&) = delete;  // one guard per temporary file
  temp_file_guard& operator=(const temp_file_guard&) = delete;

 private:
  struct sigaction m_previous[ending_signal_count] = {};
  bool m_replaced[ending_signal_count] = {};
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

// The temporary name beside `target`: ".<name>.XXXXXX" (mkstemp fills the Xs), or
// ".cudalab.XXXXXX" where that would pass the directory's longest name.
std::string temp_template(const std::string& target, std::size_t name_max) {
  const std::string dir = directory_of(target);
  const std::string name = base_name_of(target);
  constexpr std::size_t extra = 8;  // the leading dot and ".XXXXXX"
  return (dir == "/" ? "" : dir) + "/." +
         (name.size() + extra <= name_max ? name : std::string("cudalab")) + ".XXXXXX";
}

std::size_t longest_name_in(const std::string& dir) {
  const long name_max = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return name_max > 0 ? static_cast<std::size_t>(name_max) : NAME_MAX;
}

// The output stream of a commit: buffered writes to a descriptor, each checked (a failed write
// throws cudalab::error through the stream, which rethrows it: os.exceptions(badbit)).
class descriptor_buffer : public std::streambuf {
 public:
  descriptor_buffer(int fd, std::string shown_path)
      : m_fd(fd), m_shown(std::move(shown_path)), m_buffer(1 << 16) {
    setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
  }

 protected:
  int_type overflow(int_type c) override {
    drain();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    drain();
    return 0;
  }

 private:
  void drain();
  int m_fd;
  std::string m_shown;
  std::vector<char> m_buffer;
};

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

void descriptor_buffer::drain() {
  write_all(m_fd, std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())), m_shown);
  setp(m_buffer.data(), m_buffer.data() + m_buffer.size());
}

// Runs `write` on a stream into `fd` and flushes it; a failure of either throws.
void stream_into(int fd, const std::string& shown_path,
                 const std::function<void(std::ostream&)>& write) {
  descriptor_buffer buffer(fd, shown_path);
  std::ostream out(&buffer);
  out.exceptions(std::ios::badbit);
  write(out);
  out.flush();
}

// Copies the whole of `from` (read from its start) over `to`'s content, in place.
void copy_into(int from, int to, const std::string& shown_path) {
  if (::lseek(from, 0, SEEK_SET) != 0 || ::ftruncate(to, 0) != 0)
    throw error("--output '" + shown_path + "': write failed (" + std::strerror(errno) + ")");
  std::vector<char> chunk(1 << 16);
  for (;;) {
    const ssize_t n = ::read(from, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw error("--output '" + shown_path + "': read back failed (" + std::strerror(errno) + ")");
    if (n == 0) break;
    write_all(to, std::string_view(chunk.data(), static_cast<std::size_t>(n)), shown_path);
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
  // Cut short enough that a refusal quoting it stays one line within 120 columns.
  const std::string name = shown(m_path, 32);
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
  const bool exists = ::stat(m_path.c_str(), &st) == 0;
  const int stat_error = errno;
  // Files of /proc and /sys are the kernel's settings, never a place for a report (root may
  // open them, and the write would fail, or worse succeed, after the whole run).
  struct statfs fs {};
  if (::statfs(exists ? m_path.c_str() : directory_of(m_path).c_str(), &fs) == 0 &&
      (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC))
    refuse("is inside /proc or /sys (kernel settings, not a file for a report)");
  if (exists) {
    if (S_ISDIR(st.st_mode)) refuse("is a directory: name a file inside it");
    char resolved[PATH_MAX + 1];
    if (!::realpath(m_path.c_str(), resolved))
      refuse(std::string("cannot resolve the path (") + std::strerror(errno) + ")");
    m_target = resolved;
    m_regular = S_ISREG(st.st_mode);
    // Root may write any file; a file without a write bit was still meant to stay as it is.
    if (::access(m_target.c_str(), W_OK) != 0 || (m_regular && (st.st_mode & 0222) == 0))
      refuse("is read-only: make it writable or choose another name");
  } else if (stat_error != ENOENT) {
    refuse(std::string("cannot write there (") + std::strerror(stat_error) + ")");
  } else {
    m_target = m_path;
    const std::string dir = directory_of(m_target);
    struct stat dir_st {};
    if (::stat(dir.c_str(), &dir_st) != 0) refuse("its directory does not exist");
    if (!S_ISDIR(dir_st.st_mode)) refuse("its directory is a file, not a directory");
  }
  if (m_regular) {
    const std::string dir = directory_of(m_target);
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      refuse(std::string("cannot write in its directory (") + std::strerror(errno) + ")");
    const std::size_t limit = longest_name_in(dir);
    if (base_name_of(m_target).size() > limit)
      refuse("the file name is too long (at most " + std::to_string(limit) + " characters here)");
    if (temp_template(m_target, limit).size() > PATH_MAX || m_target.size() > PATH_MAX)
      refuse("the path is too long");
  }
}

void output_file::commit(std::string_view text) {
  commit([text](std::ostream& out) {
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  });
}

void output_file::commit(const std::function<void(std::ostream&)>& write) {
  const std::string name = shown(m_path);
  if (m_descriptor >= 0) {  // the caller's descriptor: written in place, left open
    stream_into(m_descriptor, name, write);
    return;
  }
  if (!m_regular) {
    unique_fd fd(::open(m_target.c_str(), O_WRONLY | O_NOCTTY));
    if (fd.get() < 0)
      throw error("--output '" + name + "': cannot open (" + std::strerror(errno) + ")");
    stream_into(fd.get(), name, write);
    if (::close(fd.release()) != 0)
      throw error("--output '" + name + "': write failed (" + std::strerror(errno) + ")");
    return;
  }
  struct stat st {};
  const bool exists = ::stat(m_target.c_str(), &st) == 0;
  const mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();

  // The report is written whole into a temporary file first, so that a failure while it is
  // made leaves the old file as it was.
  std::string temp = temp_template(m_target, longest_name_in(directory_of(m_target)));
  unique_fd fd(::mkstemp(temp.data()));
  if (fd.get() < 0)
    throw error("--output '" + name + "': cannot create a temporary file beside it (" +
                std::strerror(errno) + ")");
  temp_file_guard guard(temp);
  stream_into(fd.get(), name, write);
  // A rename would make the file root's (root writing a user's file) or part it from its
  // other hard links: then the finished report is copied into the file itself.
  bool in_place = exists && st.st_nlink > 1;
  if (exists && !in_place && (st.st_uid != ::geteuid() || st.st_gid != ::getegid()))
    in_place = ::fchown(fd.get(), st.st_uid, st.st_gid) != 0;
  if (in_place) {
    unique_fd target(::open(m_target.c_str(), O_WRONLY | O_NOCTTY));
    if (target.get() < 0)
      throw error("--output '" + name + "': cannot open (" + std::strerror(errno) + ")");
    copy_into(fd.get(), target.get(), name);
    if (::fsync(target.get()) != 0 || ::close(target.release()) != 0)
      throw error("--output '" + name + "': write failed (" + std::strerror(errno) + ")");
    return;  // the guard removes the temporary file
  }
  if (::fchmod(fd.get(), mode) != 0 || ::fsync(fd.get()) != 0 || ::close(fd.release()) != 0)
    throw error("--output '" + name + "': write failed (" + std::strerror(errno) + ")");
  if (::rename(temp.c_str(), m_target.c_str()) != 0)
    throw error("--output '" + name + "': rename failed (" + std::strerror(errno) + ")");
  guard.keep();
}

}  // namespace cudalab::tool
