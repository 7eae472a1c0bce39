// The tool's messages within 120 columns whatever the reason: the reasons a machine has no usable
// GPU (an old driver among them, which no CI machine has), the notice `run` ends with, and a
// message too long for one line, whose fix must not be cut off.
#include "error_text.hpp"

#include "cudalab/check.hpp"
#include "cudalab/device.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cudalab::tool {
namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

// The lines as one text again: each line's indent dropped, the lines joined by a space.
std::string flowed(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines)
    text += (text.empty() ? "" : " ") + line.substr(line.find_first_not_of(' '));
  return text;
}

void expect_fits(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) EXPECT_LE(line.size(), output_columns) << joined(lines);
}

TEST(no_device_reason, says_which_of_no_driver_and_an_old_driver_the_runtime_means) {
  EXPECT_EQ(no_device_reason(cudaErrorInsufficientDriver, 0, 13000, nullptr),
            "no NVIDIA driver is installed (libcuda.so.1 not found)");
  EXPECT_EQ(no_device_reason(cudaErrorInsufficientDriver, 12040, 13000, nullptr),
            "the driver runs CUDA 12.4, this build needs 13.0: update the driver");
  EXPECT_EQ(no_device_reason(cudaErrorNoDevice, 13000, 13000, ""),
            "CUDA_VISIBLE_DEVICES='' leaves no CUDA device visible");
  EXPECT_EQ(no_device_reason(cudaErrorNoDevice, 13000, 13000, nullptr),
            "cudaErrorNoDevice: no CUDA-capable device is detected");
}

TEST(no_device_reason, the_kits_own_reasons_fit_90_columns_whatever_the_environment_holds) {
  const std::string long_value(5000, '7');
  for (const std::string& reason :
       {no_device_reason(cudaErrorInsufficientDriver, 0, 13000, nullptr),
        no_device_reason(cudaErrorInsufficientDriver, 99990, 99990, nullptr),
        no_device_reason(cudaErrorNoDevice, 13000, 13000, long_value.c_str()),
        no_device_reason(cudaErrorNoDevice, 13000, 13000, "0,\n\x1b[2J")}) {
    EXPECT_LE(reason.size(), 90u) << reason;
    EXPECT_EQ(reason.find('\n'), std::string::npos) << reason;
    EXPECT_EQ(reason.find('\x1b'), std::string::npos) << reason;
  }
}

TEST(predictions_only_notice, fits_120_columns_and_keeps_the_fix_for_an_old_driver) {
  const std::vector<std::string> lines =
      predictions_only_notice(no_device_reason(cudaErrorInsufficientDriver, 12040, 13000, nullptr));
  expect_fits(lines);
  EXPECT_NE(flowed(lines).find("update the driver) fix: run on a machine with an NVIDIA GPU"),
            std::string::npos)
      << joined(lines);
}

TEST(message_lines, a_no_device_error_for_an_old_driver_fits_with_its_fix) {
  const no_device_error e(no_device_reason(cudaErrorInsufficientDriver, 12040, 13000, nullptr) +
                          "; --trace and --lines run the kernels");
  const std::vector<std::string> lines = message_lines(e.what(), "fix", e.hint());
  expect_fits(lines);
  EXPECT_EQ(lines.front().rfind("cudalab: no CUDA device: the driver runs CUDA 12.4", 0), 0u)
      << joined(lines);
  EXPECT_NE(
      flowed(lines).find("update the driver; --trace and --lines run the kernels fix: use a GPU"),
      std::string::npos)
      << joined(lines);
}

TEST(message_lines, a_message_that_fits_is_one_line_as_written) {
  EXPECT_EQ(message_lines("--size 0 is not a size"),
            std::vector<std::string>{"cudalab: --size 0 is not a size"});
  EXPECT_EQ(message_lines("a\nb"), std::vector<std::string>{"cudalab: a\\nb"});
}

}  // namespace
}  // namespace cudalab::tool
