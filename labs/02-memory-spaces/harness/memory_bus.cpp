// The bus's theoretical peak (memory_bus.hpp).
#include "memory_bus.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace cudalab::labs {
namespace {

std::optional<std::string> read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

}  // namespace

int pcie_link::generation() const {
  if (gigatransfers >= 64) return 6;
  if (gigatransfers >= 32) return 5;
  if (gigatransfers >= 16) return 4;
  if (gigatransfers >= 8) return 3;
  if (gigatransfers >= 5) return 2;
  return 1;
}

double pcie_link::peak_gbps() const {
  const int gen = generation();
  const double efficiency = gen <= 2 ? 8.0 / 10.0 : gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
  return gigatransfers * width * efficiency / 8.0;
}

std::optional<pcie_link> parse_pcie_link(const std::string& speed, const std::string& width) {
  pcie_link link;
  if (std::sscanf(speed.c_str(), "%lf GT/s", &link.gigatransfers) != 1 || link.gigatransfers <= 0)
    return std::nullopt;
  if (std::sscanf(width.c_str(), "%d", &link.width) != 1 || link.width <= 0) return std::nullopt;
  return link;
}

std::string bus_peak_note() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();  // no device: nothing sticky to keep
    return "bus peak: unknown (no CUDA device)";
  }
  char address[32];
  std::snprintf(address, sizeof address, "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID,
                prop.pciDeviceID);
  const std::string dir = std::string("/sys/bus/pci/devices/") + address + "/";
  // The link's maximum, not its current state: an idle GPU drops its link to a lower speed to
  // save power and raises it again when a copy starts.
  const auto speed = read_line(dir + "max_link_speed");
  const auto width = read_line(dir + "max_link_width");
  const auto link = speed && width ? parse_pcie_link(*speed, *width) : std::nullopt;
  if (!link)
    return std::string("bus peak: unknown (no PCIe link in ") + dir +
           "; the copies' GB/s have no roof here)";
  char line[200];
  std::snprintf(line, sizeof line,
                "bus: PCIe gen %d x%d (%s, %.1f GT/s a lane): %.1f GB/s each way, theoretical; "
                "compare the copies' GB/s with it",
                link->generation(), link->width, address, link->gigatransfers, link->peak_gbps());
  return line;
}

}  // namespace cudalab::labs
