// Lab 03 on the GPU: every variant verifies at sides that are multiples of no tile (and tiny
// ones), the naive kernel at every block height; the unguarded kernel fails exactly where its
// assumption breaks, and its stray writes stay in the padded band.
#include "matmul_lab.hpp"
#include "matmul_variants.hpp"

#include "matmul/matmul_kernels.cuh"

#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/one_lab_registry.hpp"
#include "cudalab/testing/variant_runs.hpp"

#include "gpu_test.hpp"

#include <memory>
#include <string>

// This test binary registers lab 03 alone, built against the exercise.cu it links.
CUDALAB_REGISTRY_OF_ONE_LAB(cudalab::labs::make_lab_03_shared_memory_tiling)

namespace {

using cudalab::launch_config;
using cudalab::verify_result;

class matmul_gpu : public cudalab::testing::stream_test {
 protected:
  verify_result run(const std::string& name, std::size_t n, int block, long tile) {
    const cudalab::variant* v = m_lab.find(name);
    if (!v) return {false, "no variant " + name};
    auto p = v->prepare(launch_config{n, block, tile}, m_stream->get());
    return run_twice_and_verify(*p);
  }
  const cudalab::lab m_lab = cudalab::labs::make_lab_03_shared_memory_tiling();
};

const std::size_t odd_sides[] = {1, 7, 33, 77, 1001};

TEST_F(matmul_gpu, naive_verifies_at_odd_sides_and_every_block_height) {
  for (std::size_t n : odd_sides)
    for (int block : {32, 96, 256, 1024}) {
      const verify_result r = run("naive", n, block, 0);
      EXPECT_TRUE(r.ok) << "n=" << n << " block=" << block << ": " << r.detail;
    }
}

TEST_F(matmul_gpu, tiled_verifies_at_odd_sides_and_every_tile) {
  for (std::size_t n : odd_sides)
    for (long tile : {2, 4, 8, 16, 32}) {
      const verify_result r = run("tiled", n, 256, tile);
      EXPECT_TRUE(r.ok) << "n=" << n << " T=" << tile << ": " << r.detail;
    }
}

TEST_F(matmul_gpu, store_in_loop_cublas_and_the_cpu_verify) {
  for (std::size_t n : odd_sides) {
    for (const char* name : {"tiled_store_in_loop", "cublas", "exercise"}) {
      const verify_result r = run(name, n, 256, 0);
      EXPECT_TRUE(r.ok) << name << " n=" << n << ": " << r.detail;
    }
    if (n <= 77) {
      const verify_result r = run("cpu_naive", n, 256, 0);
      EXPECT_TRUE(r.ok) << "cpu_naive n=" << n << ": " << r.detail;
    }
  }
}

// Right when 16 divides n; otherwise it reads NaN from the band and writes past C.
TEST_F(matmul_gpu, unguarded_is_right_only_when_the_tile_divides_the_side) {
  for (std::size_t n : {16u, 64u, 1008u}) {
    const verify_result r = run("tiled_unguarded", n, 256, 0);
    EXPECT_TRUE(r.ok) << "n=" << n << ": " << r.detail;
  }
  for (std::size_t n : {17u, 77u, 1001u}) {
    const verify_result r = run("tiled_unguarded", n, 256, 0);
    EXPECT_FALSE(r.ok) << "n=" << n << " passed: " << r.detail;
    EXPECT_NE(r.detail.find("written past"), std::string::npos) << r.detail;
  }
}

}  // namespace
