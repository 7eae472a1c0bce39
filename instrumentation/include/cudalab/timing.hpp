// Timing: warm-up first, then the median of repeats with min and max. GPU work is timed with
// CUDA events on its stream; work the CPU does itself is timed with the host's steady clock.
#pragma once

#include <cuda_runtime_api.h>

#include <functional>
#include <vector>

namespace cudalab {

struct timing_stats {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int repeats = 0;
};

// Median, min and max of a set of samples (milliseconds). Empty input gives zeros.
timing_stats summarize_timings(std::vector<double> samples_ms);

// Times `work` on `stream`: `warmup` untimed runs, then `repeats` runs each bracketed by
// events. `before_each` runs outside the timed region (to restore inputs, poison outputs).
timing_stats time_on_stream(cudaStream_t stream, int warmup, int repeats,
                            const std::function<void()>& work,
                            const std::function<void()>& before_each = {});

// Times `work` that runs on the host (a CPU baseline) with std::chrono::steady_clock: events
// stamp when the GPU reaches them, which says nothing exact about a loop on the CPU. Same
// warm-up, repeats and untimed `before_each` as time_on_stream.
timing_stats time_on_host(int warmup, int repeats, const std::function<void()>& work,
                          const std::function<void()>& before_each = {});

}  // namespace cudalab
