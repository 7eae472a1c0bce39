// The host-to-device bus's theoretical peak, the roof of the copies' GB/s. cudaDeviceProp names
// the device's PCI address but not its link, so the link's speed and width come from Linux's
// sysfs (/sys/bus/pci/devices/<address>/max_link_speed and max_link_width).
#pragma once

#include <optional>
#include <string>

namespace cudalab::labs {

struct pcie_link {
  double gigatransfers = 0;  // per lane and second: 2.5, 5, 8, 16, 32, 64
  int width = 0;             // lanes
  // Bytes a second each way: PCIe 1-2 carry 8 bits in 10 on the wire, PCIe 3-5 128 in 130
  // (PCIe 6's FLIT encoding counted as 242 in 256).
  double peak_gbps() const;
  int generation() const;
};

// Parses sysfs's "16.0 GT/s PCIe" (or "16 GT/s") and "16"; nullopt when either does not parse.
std::optional<pcie_link> parse_pcie_link(const std::string& speed, const std::string& width);

// One line for the end of `cudalab run 02`: the current device's link and its peak, or why it is
// not known (no device, no sysfs entry).
std::string bus_peak_note();

}  // namespace cudalab::labs
