// A variant that launches no kernel of its own and is timed by the host's clock: work the CPU
// does (lab 03's cpu_naive) or CUDA runtime calls that return when done (lab 02's alloc_free).
// There is nothing for the counters or the tracer to follow, and no event on the stream would
// bracket the work.
#pragma once

#include "cudalab/lab.hpp"

#include <string>
#include <utility>

namespace cudalab {

inline variant new_host_timed_variant(std::string name, variant_role role, std::string lesson) {
  variant v = new_variant(std::move(name), role, std::move(lesson));
  v.has_kernels = false;
  v.timed_on_host = true;
  return v;
}

}  // namespace cudalab
