// Lab 05 variant factories: the prepared-variant plumbing (buffers, poison, download, verify)
// shared by lab.cpp, exercise.cu and solution.cu, so a variant is one call with its launcher.
#pragma once

#include "reduction_model.hpp"

#include "reduction/reduction_kernels.cuh"

#include "cudalab/lab.hpp"

#include <optional>
#include <string>

namespace cudalab::labs {

// A tree kernel: in[0, n) -> one partial sum a block.
template <typename T>
using partials_launcher = reduction::launch_dims (*)(const T* in, T* partial, std::size_t n,
                                                     unsigned block, cudaStream_t stream);

enum class finish_on { cpu, gpu };

struct partials_spec : variant_identity {
  partials_launcher<float> launch = nullptr;
  bool two_elements_a_thread = false;  // first add during load: a block covers 2 * block elements
  finish_on finish = finish_on::cpu;
  std::optional<reduction_model::kernel> model;  // empty: no prediction (the exercise)
};

// Partial sums checked block by block; finished on the CPU (untimed) or by a second GPU pass.
variant make_partials_variant(partials_spec spec);
// The grid-stride kernel on floats or, checked exactly, on integers.
variant make_grid_stride_variant(std::string name, bool integers, std::string lesson);
variant make_cub_variant();
// The CPU loop the verification uses, timed: the other side of the GPU-vs-CPU comparison.
variant make_cpu_reference_variant();

// The learner's kernel (exercise.cu) or the reference solution (solution.cu): whichever the
// binary links.
variant make_reduction_exercise_variant();

}  // namespace cudalab::labs
