// unique_handle: one owner destroys a handle exactly once, whatever moves it (streams, events,
// graphs, cuBLAS handles, pinned memory and file descriptors all rest on it).
#include "cudalab/unique_handle.hpp"
#include "cudalab/unique_fd.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <utility>
#include <vector>

namespace cudalab {
namespace {

std::vector<int> destroyed;

struct record_destroy {
  void operator()(int h) const noexcept { destroyed.push_back(h); }
};
using counted = unique_handle<int, record_destroy, -1>;

TEST(unique_handle, destroys_once_whatever_moves_it) {
  destroyed.clear();
  {
    counted a(3);
    counted b(std::move(a));
    EXPECT_FALSE(a);
    EXPECT_EQ(b.get(), 3);
    counted c(5);
    c = std::move(b);  // 5 goes, 3 stays with c
    EXPECT_EQ(destroyed, std::vector<int>{5});
    c = std::move(c);  // itself: nothing destroyed
    EXPECT_EQ(c.get(), 3);
  }
  EXPECT_EQ(destroyed, (std::vector<int>{5, 3}));
}

TEST(unique_handle, receive_release_and_reset) {
  destroyed.clear();
  counted h(7);
  *h.receive() = 8;  // receive destroys what it held
  EXPECT_EQ(destroyed, std::vector<int>{7});
  EXPECT_EQ(h.release(), 8);
  EXPECT_FALSE(h);
  h.reset(9);
  h.reset();
  EXPECT_EQ(destroyed, (std::vector<int>{7, 9}));
  counted empty;
  empty.reset();  // nothing to destroy
  EXPECT_EQ(destroyed.size(), 2u);
}

TEST(unique_fd, closes_its_descriptor) {
  int fd = -1;
  {
    unique_fd owner(::open("/dev/null", O_RDONLY));
    ASSERT_TRUE(owner);
    fd = owner.get();
    EXPECT_GE(::fcntl(fd, F_GETFD), 0);
  }
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1);  // closed
  EXPECT_FALSE(unique_fd(-1));
}

}  // namespace
}  // namespace cudalab
