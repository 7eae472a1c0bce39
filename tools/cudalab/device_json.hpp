// `cudalab device --format json`: the device's facts as one JSON object (nlohmann-json, so a
// device name with quotes or control characters stays valid JSON).
#pragma once

#include "cudalab/device.hpp"

#include <ostream>

namespace cudalab {

void write_device_json(std::ostream& out, const device_facts& facts);

}  // namespace cudalab
