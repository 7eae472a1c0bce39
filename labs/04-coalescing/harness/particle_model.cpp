// Lab 04's particle predictions: what the hardware counters will read for particles_aos and
// particles_soa.
//
// Each kernel is one LDG.E of a charge and one STG.E of a force (the SASS listed at the top of
// kernels/coalescing/particle_kernels.cu). The walk asks the kernels' index functions which
// float every lane touches; lanes past n fail the bounds guard and are inactive.
#include "coalescing_lab.hpp"
#include "coalescing_particles.hpp"
#include "coalescing_walk.hpp"

#include "coalescing/coalescing_index.cuh"
#include "coalescing/particle_index.cuh"

#include "cudalab/model/block_classes.hpp"
#include "cudalab/model/warp_patterns.hpp"

#include <optional>
#include <stdexcept>

namespace cudalab::labs {
namespace {

using namespace cudalab::coalescing;
using namespace coalescing_walk;

// A 4-byte global access of one warp: lane -> float index in the buffer at `base`.
template <class FloatIndex>
model::warp_access floats(model::access_kind kind, const model::warp_threads& w, std::uint64_t base,
                          FloatIndex&& index) {
  return model::make_warp_access(model::memory_space::global, kind, sizeof(float), w,
                                 [&](const model::warp_threads& ww, unsigned lane) -> opt_address {
                                   if (const opt_address f = index(ww, lane))
                                     return base + *f * sizeof(float);
                                   return std::nullopt;
                                 });
}

// Both kernels are guarded one-thread-a-particle launches: a block moves its records by
// 32 * block bytes and its floats by 4 * block bytes, so whole blocks repeat
// (cudalab/model/block_classes.hpp) and only one period of them and the tail need walking.
model::grid_axis particle_axis(particle_layout layout, const launch_config& c) {
  const auto block = static_cast<std::uint64_t>(c.block);
  const std::uint64_t record_bytes = layout == particle_layout::aos ? sizeof(particle) : 4;
  return model::grid_axis::guarded(c.size, block, {record_bytes * block, 4 * block});
}

model::access_counts predict_with(particle_layout layout, const launch_config& c, walk how) {
  if (c.block < 1 || c.block > 1024) throw std::invalid_argument("block must be 1..1024");
  const std::size_t n = c.size;
  const auto block = static_cast<unsigned>(c.block);
  // AoS: the records (buffer 0) and force (buffer 1). SoA: the eight field arrays (buffers 0..7,
  // the charge array last) and force (buffer 8).
  const bool aos = layout == particle_layout::aos;
  const std::uint64_t charges =
      model_buffer_base(aos ? 0 : static_cast<unsigned>(particle_field::charge));
  const std::uint64_t force = model_buffer_base(aos ? 1 : particle_fields);
  const auto particle_of = guarded_by(n, own_element);
  const auto charge = guarded_by(n, [aos](std::uint64_t i) {
    return aos ? aos_field_float(i, particle_field::charge) : soa_field_float(i);
  });
  return walk_launch(how, particle_axis(layout, c), block,
                     [&](const model::warp_threads& w, model::access_model& m) {
                       m.record(floats(model::access_kind::load, w, charges, charge));
                       m.record(floats(model::access_kind::store, w, force, particle_of));
                     });
}

}  // namespace

double particle_model_cost(particle_layout layout, const launch_config& c) {
  // A load and a store a warp.
  return walk_cost(particle_axis(layout, c), c.block, 2);
}

model::access_counts predict_particles(particle_layout layout, const launch_config& c) {
  return predict_with(layout, c, walk::block_classes);
}

model::access_counts predict_particles_every_block(particle_layout layout, const launch_config& c) {
  return predict_with(layout, c, walk::every_block);
}

}  // namespace cudalab::labs
