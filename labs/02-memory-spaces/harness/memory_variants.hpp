// Lab 02 variant factories: the kernel variants (one polynomial or weighted sum an element), the
// copies and the timing experiments, shared by lab.cpp, exercise.cu and solution.cu.
#pragma once

#include "memory_model.hpp"

#include "memory/memory_kernels.cuh"

#include "cudalab/lab.hpp"

#include <optional>
#include <string>

namespace cudalab::labs {

// What one element's output is: a polynomial (the coefficient kernels) or the spill sum.
enum class memory_output { polynomial, divergent_polynomial, spill_sum };

// A launcher with everything a kernel variant may need; each kernel ignores what it does not use.
using memory_launcher = memory::launch_dims (*)(const float* x, const float* coeffs, float* out,
                                                std::size_t n, unsigned block, cudaStream_t stream);

struct memory_kernel_spec : variant_identity {
  memory_launcher launch = nullptr;
  memory_output output = memory_output::polynomial;
  std::optional<memory_model::kernel> model;  // empty: no prediction (the exercise)
  block_rule blocks = {};
};

variant make_memory_kernel_variant(memory_kernel_spec spec);

// The launchers of the lab's kernels in the memory_launcher shape.
memory_launcher launcher_of(memory_model::kernel k);

// The learner's kernel (exercise.cu) or the reference solution (solution.cu): whichever the
// binary links. Same output as local_spill.
variant make_memory_exercise_variant();

// ---- Copies and timing experiments (memory_transfers.cpp) ----

enum class host_memory { pageable, pinned };
enum class copy_direction { h2d, d2h };
// cudaMemcpyAsync of the whole buffer in one direction, timed with events; GB/s of the copy.
variant make_copy_variant(std::string name, variant_role role, host_memory host,
                          copy_direction direction, std::string lesson);
// The input up, coeffs_global, the output down, in `streams` chunks of pinned memory on as many
// streams (1: everything in order on one stream).
variant make_pipeline_variant(std::string name, variant_role role, unsigned streams,
                              std::string lesson);
// coeffs_global timed with the host's clock and no synchronisation (buggy: the launch alone)
// or with events (fixed).
variant make_timer_variant(std::string name, variant_role role, bool host_clock,
                           std::string lesson);
// cudaMalloc and cudaFree of one buffer of the size, timed with the host's clock.
variant make_alloc_variant();

// The streams of overlap_streams.
inline constexpr unsigned overlap_stream_count = 4;

}  // namespace cudalab::labs
