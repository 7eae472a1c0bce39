// Lab 07 variant factories: the prepared-variant plumbing (exact-size buffers, poison, download,
// verify) shared by lab.cpp, exercise.cu and solution.cu, so a variant is one call with its
// launcher.
//
// Every output is allocated at exactly its size, with nothing after it: a write past the end
// leaves the allocation, where memcheck sees it (lab 01 keeps a canary band after its output
// instead, and memcheck rightly calls its no_bounds_guard clean). A buggy variant's verify says
// what a learner would see: a wrong or stale output, or nothing at all when the bug is silent.
#pragma once

#include "debugging/debugging_kernels.cuh"

#include "cudalab/lab.hpp"

#include <cstddef>
#include <string>

namespace cudalab::labs {

// A 1D kernel from n floats to n floats.
using array_launcher = debugging::launch_dims (*)(const float* in, float* out, std::size_t n,
                                                  unsigned block, cudaStream_t stream);

// What the output should hold, computed on the CPU with the kernels' own index functions.
enum class expected_output { ramp, blur, pair_swap, table_scale, chunk_reverse };

struct array_spec : variant_identity {
  array_launcher launch = nullptr;
  expected_output expected = expected_output::ramp;
  // The kernel stores past the end (no guard on a ceil-div grid): the size must leave the tail
  // block's overshoot inside the allocator's slack, or the variant refuses it.
  bool writes_past_end = false;
  // The launch is expected to fail (checked_launch): its cuda_error is caught and becomes the
  // verification's detail, so the run goes on to the next variant.
  bool launch_fails = false;
  unsigned block_multiple = 1;  // 32: the kernel pairs lanes of whole warps
};

variant make_array_variant(array_spec spec);

// The variants with data of their own.
variant make_index_overflow_variant(bool fixed);
variant make_uninit_read_variant(bool fixed);
variant make_leak_variant(bool fixed);
enum class histogram_kind { racy, atomic, privatised };
variant make_histogram_variant(histogram_kind kind);
variant make_swapped_index_variant(bool fixed);

// The elements the index_overflow variants run on, whatever --size says: a little over 2^31
// bytes, so that the last 4096 threads' int index wraps.
inline constexpr std::size_t overflow_elements = (std::size_t{1} << 31) + 4096;

// The learner's kernel (exercise.cu) or the reference solution (solution.cu): whichever the
// binary links. The 3-point blur, unguarded stores allowed (the untouched exercise has them).
variant make_debugging_exercise_variant();
variant make_exercise_variant(const std::string& lesson, array_launcher launch);

}  // namespace cudalab::labs
