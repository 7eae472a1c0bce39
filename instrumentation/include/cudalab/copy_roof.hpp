// The copy roof: what the memory system delivers to a plain device-to-device copy, against which
// the labs' bandwidths are read (%copy). Two copies are measured and the faster one is the roof:
// cudaMemcpy (the driver's copy) and a copy kernel of 16-byte accesses, which on some cards
// moves more than cudaMemcpy does. A kernel that beats the slower of
// the two has not beaten what the memory can do.
#pragma once

#include <string>

namespace cudalab {

struct copy_roof {
  double memcpy_gbps = 0;  // cudaMemcpy device to device: bytes read + written / time
  double kernel_gbps = 0;  // the copy kernel's best configuration; 0 when not measured
  double gbps() const { return kernel_gbps > memcpy_gbps ? kernel_gbps : memcpy_gbps; }
  // Which copy set the roof, for the views: "cudaMemcpy" or "copy kernel".
  std::string source() const { return kernel_gbps > memcpy_gbps ? "copy kernel" : "cudaMemcpy"; }
  // "copy roof 2870 GB/s (cudaMemcpy; cudaMemcpy 2870, copy kernel 2716)", or, where the kernel
  // was not measured, "copy roof 2870 GB/s (cudaMemcpy device to device)".
  std::string describe() const;
};

// Both copies of 256 MiB each way (far beyond any L2, so DRAM's bandwidth), each the median of
// 20 runs after 3 warm-ups; the kernel in a few shapes (several words in flight a thread over a
// few blocks an SM, or one word a thread over the whole buffer, plain or evict-first), the best
// kept.
// `with_kernel` false measures cudaMemcpy alone (a process whose every launch is instrumented
// by the memory tracer, where a kernel's time says nothing). Measured once per process, device
// and `with_kernel`.
copy_roof measured_copy_roof(int device, bool with_kernel = true);

}  // namespace cudalab
