// The copy roof: what the memory system delivers to a plain device-to-device copy, against which
// the labs' bandwidths are read (%copy).
#pragma once

namespace cudalab {

// Bandwidth of cudaMemcpy device to device (bytes read + written / time), 256 MiB each way so
// that it is DRAM's, not L2's. Measured once per process and device.
double measured_copy_gbps(int device);

}  // namespace cudalab
