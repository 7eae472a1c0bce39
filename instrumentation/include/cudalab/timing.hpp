// Kernel timing with CUDA events: warm-up first, then the median of repeats with min and max.
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

}  // namespace cudalab
