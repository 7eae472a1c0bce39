// `cudalab device --format json`: the device facts as JSON, whatever a driver puts in a name.
#include "device_json.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace cudalab {
namespace {

TEST(device_json, a_device_name_with_quotes_and_a_newline_round_trips) {
  device_facts facts;
  facts.name = "NVIDIA \"H100\"\nline two";
  facts.max_grid_dim[0] = 2147483647;
  facts.global_memory_free = std::size_t{84} << 30;
  facts.driver_version = 13000;
  std::ostringstream out;
  write_device_json(out, facts);
  const auto doc = nlohmann::json::parse(out.str());
  EXPECT_EQ(doc.at("name").get<std::string>(), facts.name);
  EXPECT_EQ(doc.at("max_grid_dim").at(0).get<long long>(), 2147483647);
  EXPECT_EQ(doc.at("global_memory_free_bytes").get<std::size_t>(), facts.global_memory_free);
  EXPECT_EQ(doc.at("driver_version").get<std::string>(), format_version(13000));
}

}  // namespace
}  // namespace cudalab
