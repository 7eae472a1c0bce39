// The host half of the CUPTI Range Profiler: a metric configuration for one chip.
//
// It needs no GPU: given the chip name ("GH100") and no counter availability image, CUPTI
// builds the configuration image and counts the passes offline, so CPU tests check every
// metric name the kit uses. With a device's availability image it is the configuration a
// session runs, and it evaluates the counter data CUPTI collected.
//
// RAII, move-only: owns a CUpti_Profiler_Host_Object.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace cudalab::detail {

class cupti_host_config {
 public:
  // Throws cupti_error (an unknown chip, or a metric CUPTI does not know on it).
  cupti_host_config(const std::string& chip, const std::vector<std::uint8_t>& availability,
                    const std::vector<std::string>& metrics);
  ~cupti_host_config();
  cupti_host_config(const cupti_host_config&) = delete;  // owns the host object
  cupti_host_config& operator=(const cupti_host_config&) = delete;
  cupti_host_config(cupti_host_config&& other) noexcept;
  cupti_host_config& operator=(cupti_host_config&& other) noexcept;

  std::size_t passes() const noexcept { return m_passes; }
  const std::vector<std::uint8_t>& image() const noexcept { return m_image; }
  const std::vector<std::string>& metrics() const noexcept { return m_metrics; }
  // One value per metric for range `range` of a decoded counter data image.
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data,
                               std::size_t range) const;

 private:
  void release() noexcept;

  CUpti_Profiler_Host_Object* m_host = nullptr;
  std::vector<std::string> m_metrics;
  std::vector<std::uint8_t> m_image;
  std::size_t m_passes = 0;
};

// The chips this CUPTI can configure offline (GV100 ... GH100 ... GB202).
std::vector<std::string> cupti_supported_chips();

}  // namespace cudalab::detail
