// A file descriptor closed on every path (unique_handle.hpp): the one descriptor owner.
#pragma once

#include "cudalab/unique_handle.hpp"

#include <unistd.h>

namespace cudalab {

struct close_descriptor {
  void operator()(int fd) const noexcept { ::close(fd); }
};

// -1 owns nothing, as open(2) returns it on failure.
using unique_fd = unique_handle<int, close_descriptor, -1>;

}  // namespace cudalab
