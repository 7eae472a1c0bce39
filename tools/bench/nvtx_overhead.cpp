// Benchmark: the cost of a cudalab NVTX range (push + pop, registered string, lab category)
// with no tool attached, against the kernel time it annotates.
//
// usage: nvtx_overhead [kernel_ms] [launches]
// Prints the median cost of one range over 21 batches of 100,000, and, given the median kernel
// time of a variant and its launches per run (warm-up + repeats), the share of that kernel time
// that the ranges of one variant (8: lab, variant, alloc, h2d, kernel, d2h, verify, counters)
// represent. Run it with and without NVTX_INJECTION64_PATH to see both paths.
#include "cudalab/nvtx.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char** argv) {
  constexpr int batches = 21, per_batch = 100000, ranges_per_variant = 8;
  std::vector<double> ns;
  for (int b = 0; b < batches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < per_batch; ++i) {
      cudalab::nvtx::scoped_range r("kernel", "01-thread-indexing");
    }
    const auto stop = std::chrono::steady_clock::now();
    ns.push_back(std::chrono::duration<double, std::nano>(stop - start).count() / per_batch);
  }
  std::sort(ns.begin(), ns.end());
  const double median = ns[batches / 2];
  std::printf("nvtx range (push+pop): median %.1f ns, min %.1f, max %.1f\n", median, ns.front(),
              ns.back());
  if (argc > 1) {
    const double kernel_ms = std::atof(argv[1]);
    const double launches = argc > 2 ? std::atof(argv[2]) : 1;
    if (kernel_ms > 0 && launches > 0)
      std::printf("%d ranges per variant = %.3f us = %.4f%% of %.0f launches of a %.4f ms kernel\n",
                  ranges_per_variant, ranges_per_variant * median / 1e3,
                  100.0 * ranges_per_variant * median / (launches * kernel_ms * 1e6), launches,
                  kernel_ms);
  }
  return 0;
}
