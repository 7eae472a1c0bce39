#include "cudalab/timing.hpp"

#include "cudalab/check.hpp"
#include "cudalab/stream.hpp"

#include <algorithm>
#include <chrono>

namespace cudalab {

timing_stats summarize_timings(std::vector<double> samples_ms) {
  timing_stats stats;
  if (samples_ms.empty()) return stats;
  std::sort(samples_ms.begin(), samples_ms.end());
  const std::size_t n = samples_ms.size();
  stats.median_ms = n % 2 ? samples_ms[n / 2] : 0.5 * (samples_ms[n / 2 - 1] + samples_ms[n / 2]);
  stats.min_ms = samples_ms.front();
  stats.max_ms = samples_ms.back();
  stats.repeats = static_cast<int>(n);
  return stats;
}

timing_stats time_on_stream(cudaStream_t stream, int warmup, int repeats,
                            const std::function<void()>& work,
                            const std::function<void()>& before_each) {
  for (int i = 0; i < warmup; ++i) {
    if (before_each) before_each();
    work();
  }
  cuda_event start, stop;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    if (before_each) before_each();
    start.record(stream);
    work();
    stop.record(stream);
    CUDALAB_CHECK_CUDA(cudaEventSynchronize(stop.get()));
    float ms = 0;
    CUDALAB_CHECK_CUDA(cudaEventElapsedTime(&ms, start.get(), stop.get()));
    samples.push_back(ms);
  }
  return summarize_timings(std::move(samples));
}

timing_stats time_on_host(int warmup, int repeats, const std::function<void()>& work,
                          const std::function<void()>& before_each) {
  using clock = std::chrono::steady_clock;
  for (int i = 0; i < warmup; ++i) {
    if (before_each) before_each();
    work();
  }
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(repeats));
  for (int i = 0; i < repeats; ++i) {
    if (before_each) before_each();
    const clock::time_point start = clock::now();
    work();
    const clock::time_point stop = clock::now();
    samples.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  return summarize_timings(std::move(samples));
}

}  // namespace cudalab
