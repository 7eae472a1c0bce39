// Lab 02 counters against the model, on the release build (-G keeps every local in local memory
// and changes the counts).
//
//  - Global and local requests and sectors are deterministic: equal to the model for every
//    kernel variant at full warps, with the block a multiple of 32 and not.
//  - Partial warps' 16-byte local loads: the model lays a lane's 16 bytes side by side; a test of
//    its own holds that to the hardware at a size whose last warp has 3 lanes.
//  - The constant cache (unmeasured until this test ran): constant_divergent's divergent LDC
//    instructions and replays equal the model; idc__requests is printed and must cover at least
//    the coefficient LDCs; the other kernels issue no divergent constant load.
#include "memory_lab.hpp"
#include "memory_model.hpp"
#include "memory_variants.hpp"

#include "cudalab/counters.hpp"
#include "cudalab/lab.hpp"
#include "cudalab/stream.hpp"
#include "cudalab/testing/counted_launch.hpp"

#include "gpu_test.hpp"

#include <iostream>
#include <map>
#include <memory>
#include <string>

namespace {

using cudalab::labs::memory_model::kernel;

using namespace cudalab::testing::counted;  // the CUPTI names of the counts compared
const char* const local_ld_requests = "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum";
const char* const local_ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum";
const char* const local_st_requests = "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum";
const char* const local_st_sectors = "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum";
const char* const idc_requests = "idc__requests.sum";
const char* const idc_divergent = "sm__idc_divergent_instructions.sum";
const char* const idc_replays = "sm__idc_divergent_instruction_replays.sum";

const std::pair<const char*, kernel> kernels[] = {
    {"coeffs_global", kernel::coeffs_global},
    {"coeffs_constant", kernel::coeffs_constant},
    {"constant_divergent", kernel::constant_divergent},
    {"coeffs_shared", kernel::coeffs_shared},
    {"local_spill", kernel::local_spill},
    {"registers", kernel::registers}};

class memory_counters : public cudalab::testing::counted_launch_test {
 protected:
  std::vector<std::string> metrics() const override {
    return {ld_requests,       ld_sectors,       st_requests,       st_sectors,
            local_ld_requests, local_ld_sectors, local_st_requests, local_st_sectors,
            idc_requests,      idc_divergent,    idc_replays};
  }

  totals measure(const char* name, std::size_t n, int block) {
    return measure_variant(m_lab, name, cudalab::launch_config{n, block, 0});
  }

  void expect_global_and_local_as_modelled(const char* name, kernel k, std::size_t n, int block) {
    const auto c = cudalab::labs::memory_model::predict(k, n, static_cast<unsigned>(block),
                                                        cudalab::labs::spill_step);
    totals t = measure(name, n, block);
    const std::string where =
        std::string(name) + " n " + std::to_string(n) + " block " + std::to_string(block);
    EXPECT_EQ(t[ld_requests], static_cast<double>(c.global_ld_requests)) << where;
    EXPECT_EQ(t[ld_sectors], static_cast<double>(c.global_ld_sectors)) << where;
    EXPECT_EQ(t[st_requests], static_cast<double>(c.global_st_requests)) << where;
    EXPECT_EQ(t[st_sectors], static_cast<double>(c.global_st_sectors)) << where;
    EXPECT_EQ(t[local_ld_requests], static_cast<double>(c.local_ld_requests)) << where;
    EXPECT_EQ(t[local_ld_sectors], static_cast<double>(c.local_ld_sectors)) << where;
    EXPECT_EQ(t[local_st_requests], static_cast<double>(c.local_st_requests)) << where;
    EXPECT_EQ(t[local_st_sectors], static_cast<double>(c.local_st_sectors)) << where;
  }

  const cudalab::lab m_lab = cudalab::labs::make_lab_02_memory_spaces();
};

TEST_F(memory_counters, global_and_local_requests_and_sectors_equal_the_model_at_full_warps) {
  for (const auto& [name, k] : kernels)
    for (const int block : {256, 96, 1024})
      expect_global_and_local_as_modelled(name, k, std::size_t{1} << 20, block);
}

// 100003 = 390 x 256 + 163: the last block's last warp has 3 lanes; with 100 threads a block
// every block ends in a warp of 4.
TEST_F(memory_counters, partial_warps_local_and_global_traffic_equal_the_model) {
  for (const auto& [name, k] : kernels)
    for (const int block : {256, 100}) expect_global_and_local_as_modelled(name, k, 100003, block);
}

TEST_F(memory_counters, constant_cache_counters_follow_distinct_addresses) {
  for (const auto& [name, k] : kernels) {
    for (const std::size_t n : {std::size_t{1} << 20, std::size_t{100003}}) {
      const auto c = cudalab::labs::memory_model::predict_constant(k, n, 256);
      totals t = measure(name, n, 256);
      std::cout << name << " n " << n << ": idc requests " << t[idc_requests]
                << ", divergent instructions " << t[idc_divergent] << " (model "
                << c.divergent_instructions << "), replays " << t[idc_replays] << " (model "
                << c.replays << "), coefficient LDC " << c.ldc_instructions << "\n";
      EXPECT_EQ(t[idc_divergent], static_cast<double>(c.divergent_instructions)) << name;
      EXPECT_EQ(t[idc_replays], static_cast<double>(c.replays)) << name;
      EXPECT_GE(t[idc_requests], static_cast<double>(c.ldc_instructions)) << name;
    }
  }
}

}  // namespace
