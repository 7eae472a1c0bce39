#include "instruction_model.hpp"

#include <gtest/gtest.h>
#include <cstdio>

namespace rm = cudalab::labs::reduction_model;

TEST(scratch, print) {
  struct c { rm::kernel k; std::size_t n; unsigned b; const char* name; };
  for (auto [k, n, b, name] : {c{rm::kernel::interleaved_divergent, 1u << 20, 256, "idiv"},
                               c{rm::kernel::interleaved_divergent, 1u << 20, 32, "idiv"},
                               c{rm::kernel::interleaved_divergent, 1u << 20, 1024, "idiv"},
                               c{rm::kernel::interleaved_strided, 1u << 20, 256, "istr"},
                               c{rm::kernel::sequential, 1u << 20, 256, "seq"},
                               c{rm::kernel::first_add, 1u << 20, 256, "fa"},
                               c{rm::kernel::warp_shuffle, 1u << 20, 256, "ws"},
                               c{rm::kernel::warp_shuffle, 1u << 20, 32, "ws"},
                               c{rm::kernel::finish, 3907, 1024, "finish"},
                               c{rm::kernel::finish, 4096, 1024, "finish"},
                               c{rm::kernel::grid_stride, 1000003, 256, "gs"},
                               c{rm::kernel::grid_stride, 1u << 20, 256, "gs"}}) {
    auto p = rm::predict_instructions(k, n, b);
    if (!p.counts) { std::printf("%s: %s\n", name, p.unavailable.c_str()); continue; }
    std::printf("%-7s n=%zu b=%u inst=%llu thr=%llu uni=%llu div=%llu te=%.4f\n", name, n, b,
                (unsigned long long)p.counts->warp_instructions, (unsigned long long)p.counts->thread_instructions,
                (unsigned long long)p.counts->uniform_branches, (unsigned long long)p.counts->divergent_branches,
                p.counts->threads_per_instruction());
  }
}
