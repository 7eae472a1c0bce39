// Why counters cannot be read, as one line of reason and one line of fix per situation
// (docs/counters.md, docs/metrics.md).
#pragma once

#include "cudalab/counters.hpp"
#include "cudalab/detail/profiler_backend.hpp"

#include <optional>

namespace cudalab::detail {

counter_availability available();
counter_availability no_device(const std::string& why);
counter_availability compute_capability_too_old(int device, int major, int minor);
// nullopt when the Range Profiler supports the device; else names the failing field.
std::optional<counter_availability> unsupported(int device, const device_support& support);
// Every metric asked for is one the chip lacks (dram__bytes_read.sum alone on GB202).
counter_availability no_metric_on_chip(const std::string& chip);
// A CUPTI failure at any call: no permission, another profiler, an unsupported configuration,
// or an unexpected error naming the call.
counter_availability classify(const cupti_error& e);
// The test hook CUDALAB_COUNTERS_REFUSE (docs/metrics.md): when set, counters are refused as
// CUPTI refuses them, so that a machine with open counters can show the fallback to the tracer.
// ERR_NVGPUCTRPERM: no permission; profiler_attached: another profiler. nullopt when unset.
std::optional<counter_availability> refused_by_test_hook();

}  // namespace cudalab::detail
