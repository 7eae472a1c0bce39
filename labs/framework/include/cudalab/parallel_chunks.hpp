// Host work split over the machine's cores: making inputs and checking results of hundreds of
// megabytes (lab 04 moves 3 x 192 MiB a variant) would otherwise take longer than the GPU work
// it surrounds. Chunks are contiguous ranges, so each thread streams through memory.
#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace cudalab {

// Calls chunk(begin, end, index) for contiguous ranges covering [0, n), one a thread, at most
// hardware_concurrency() of them and none smaller than `min_chunk` elements (so small inputs
// stay on the calling thread). Returns the number of chunks; an exception in any chunk is
// rethrown after all have finished.
template <class Chunk>
std::size_t parallel_chunks(std::size_t n, Chunk&& chunk, std::size_t min_chunk = 1 << 20) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t count =
      std::max<std::size_t>(1, std::min(cores, n / std::max<std::size_t>(min_chunk, 1)));
  if (count == 1) {
    chunk(std::size_t{0}, n, std::size_t{0});
    return 1;
  }
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(count);
  for (std::size_t c = 0; c < count; ++c)
    threads.emplace_back([&, c] {
      try {
        chunk(n * c / count, n * (c + 1) / count, c);
      } catch (...) {
        errors[c] = std::current_exception();
      }
    });
  for (auto& t : threads) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return count;
}

}  // namespace cudalab
