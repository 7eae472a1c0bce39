// Reading compute-sanitizer's reports on the CPU, from text laid out as the tool prints it
// (compute-sanitizer's user guide shows each kind): a report opens at the "=========" prefix,
// its details are indented under it, and the run ends with the error summary.
#include "sanitizer_report.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cudalab::labs {
namespace {

const char* const memcheck_oob = R"(========= COMPUTE-SANITIZER
variant            role   ...
========= Invalid __global__ write of size 4 bytes
=========     at cudalab::debugging::ramp_unguarded_kernel(float *, unsigned long)+0x90 in /src/kernels/debugging/memory_bugs.cu:31
=========     by thread (35,0,0) in block (3906,0,0)
=========     Address 0x7f3c2e3d0a0c is out of bounds
=========     and is 1 bytes after the nearest allocation at 0x7f3c2e000000 of size 4,000,012 bytes
=========     Saved host backtrace up to driver entry point at kernel launch time
=========         Host Frame: [0x2f2d4f] in libcuda.so.1
=========
========= Invalid __global__ write of size 4 bytes
=========     at cudalab::debugging::ramp_unguarded_kernel(float *, unsigned long)+0x90 in /src/kernels/debugging/memory_bugs.cu:31
=========     by thread (36,0,0) in block (3906,0,0)
=========     Address 0x7f3c2e3d0a10 is out of bounds
=========
========= Program hit cudaErrorLaunchFailure (error 719) due to "unspecified launch failure" on CUDA API call to cudaStreamSynchronize.
=========     Saved host backtrace up to driver entry point at error
=========
cudalab: cudaStreamSynchronize(stream) failed: cudaErrorLaunchFailure
========= Error: process didn't terminate successfully
========= Target application returned an error
========= ERROR SUMMARY: 3 errors
)";

const char* const synccheck_divergent_barrier =
    R"(========= Barrier error detected. Divergent thread(s) in warp
=========     at cudalab::debugging::exchange_as_even(float *, unsigned int, float)+0x70 in /src/kernels/debugging/sync_bugs.cu:50
=========     by thread (0,0,0) in block (0,0,0)
=========
========= ERROR SUMMARY: 7812 errors
)";

const char* const initcheck_uninitialized_read =
    R"(========= Uninitialized __global__ memory read of size 4 bytes
=========     at cudalab::debugging::sum_partials_kernel(const float *, unsigned long, double *)+0x60 in /src/kernels/debugging/sync_bugs.cu:98
=========     by thread (0,0,0) in block (0,0,0)
=========     Address 0x7f00001e8c18
========= ERROR SUMMARY: 1 error
)";

const char* const leakcheck_one_allocation = R"(========= Leaked 1,024 bytes at 0x7f1b2a000000
=========     Saved host backtrace up to driver entry point at cudaMalloc time
=========         Host Frame: [0x2f2d4f] in libcuda.so.1
=========
========= LEAK SUMMARY: 1024 bytes leaked in 1 allocations
========= ERROR SUMMARY: 1 error
)";

TEST(sanitizer_report, reads_memchecks_invalid_writes_with_kernel_thread_address_and_line) {
  const sanitizer_report r = parse_sanitizer_output(memcheck_oob);
  ASSERT_TRUE(r.error_summary);
  EXPECT_EQ(r.errors(), 3u);
  ASSERT_EQ(r.findings.size(), 3u);  // "process didn't terminate" is about the program
  const sanitizer_finding& f = r.findings[0];
  EXPECT_EQ(f.kind, "Invalid __global__ write of size 4 bytes");
  EXPECT_EQ(f.kernel, "cudalab::debugging::ramp_unguarded_kernel");
  EXPECT_EQ(f.location, "memory_bugs.cu:31");
  EXPECT_EQ(f.thread, "(35,0,0)");
  EXPECT_EQ(f.block, "(3906,0,0)");
  EXPECT_EQ(f.address, "0x7f3c2e3d0a0c");
  EXPECT_EQ(r.findings[2].kind.rfind("Program hit cudaErrorLaunchFailure", 0), 0u);
  EXPECT_TRUE(r.findings[2].kernel.empty());
}

TEST(sanitizer_report, groups_by_kind_and_describes_the_first) {
  const std::vector<finding_group> g = group_findings(parse_sanitizer_output(memcheck_oob));
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].count, 2u);
  EXPECT_EQ(describe(g[0]),
            "Invalid __global__ write of size 4 bytes: 2 times, first in "
            "cudalab::debugging::ramp_unguarded_kernel at memory_bugs.cu:31, thread (35,0,0) "
            "block (3906,0,0), address 0x7f3c2e3d0a0c");
  EXPECT_EQ(g[1].count, 1u);
}

TEST(sanitizer_report, reads_racechecks_two_accesses_and_its_own_summary) {
  const sanitizer_report r = parse_sanitizer_output(
      R"(========= Error: Race reported between Write access at cudalab::debugging::blur_no_sync_kernel(const float *, float *, unsigned long)+0x1b0 in /src/kernels/debugging/sync_bugs.cu:26
=========     and Read access at cudalab::debugging::blur_no_sync_kernel(const float *, float *, unsigned long)+0x2a0 in /src/kernels/debugging/sync_bugs.cu:35 [248 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
)");
  ASSERT_TRUE(r.error_summary);
  EXPECT_EQ(r.errors(), 1u);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].kernel, "cudalab::debugging::blur_no_sync_kernel");
  EXPECT_EQ(r.findings[0].location, "sync_bugs.cu:26");
  const std::vector<finding_group> g = group_findings(r);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].kind, "Error: Race reported between Write access and Read access");
}

TEST(sanitizer_report, reads_synccheck_initcheck_and_leaks) {
  const sanitizer_report sync = parse_sanitizer_output(synccheck_divergent_barrier);
  EXPECT_EQ(sync.errors(), 7812u);
  ASSERT_EQ(sync.findings.size(), 1u);
  EXPECT_EQ(sync.findings[0].kernel, "cudalab::debugging::exchange_as_even");

  const sanitizer_report init = parse_sanitizer_output(initcheck_uninitialized_read);
  ASSERT_EQ(init.findings.size(), 1u);
  EXPECT_EQ(init.findings[0].address, "0x7f00001e8c18");
  EXPECT_EQ(init.errors(), 1u);

  const sanitizer_report leak = parse_sanitizer_output(leakcheck_one_allocation);
  ASSERT_EQ(leak.findings.size(), 1u);
  EXPECT_EQ(leak.findings[0].address, "0x7f1b2a000000");
  EXPECT_EQ(group_findings(leak)[0].kind, "Leaked device memory");
}

TEST(sanitizer_report, a_clean_run_a_dead_run_and_an_unsupported_device) {
  const sanitizer_report clean = parse_sanitizer_output(
      "========= COMPUTE-SANITIZER\nvariant ok\n========= ERROR SUMMARY: 0 errors\n");
  ASSERT_TRUE(clean.error_summary);
  EXPECT_EQ(clean.errors(), 0u);
  EXPECT_TRUE(clean.findings.empty());

  const sanitizer_report dead = parse_sanitizer_output("========= COMPUTE-SANITIZER\nSegfault\n");
  EXPECT_FALSE(dead.error_summary);

  const sanitizer_report unsupported = parse_sanitizer_output(
      "========= Error: Device not supported. Please refer to the documentation.\n");
  EXPECT_TRUE(unsupported.device_unsupported);
}

TEST(sanitizer_report, reads_the_older_at_layout_and_an_api_error) {
  const sanitizer_report r = parse_sanitizer_output(
      "========= Program hit cudaErrorInvalidValue (error 1) due to \"invalid argument\" on CUDA "
      "API call to cudaLaunchKernel.\n"
      "=========     Saved host backtrace up to driver entry point at error\n"
      "========= Invalid __global__ read of size 4 bytes\n"
      "=========     at 0x1a0 in /src/k.cu:12:blur(const float *, float *)\n"
      "=========     by thread (1,0,0) in block (2,0,0)\n"
      "========= ERROR SUMMARY: 2 errors\n");
  ASSERT_EQ(r.findings.size(), 2u);
  EXPECT_NE(r.findings[0].kind.find("cudaErrorInvalidValue"), std::string::npos);
  EXPECT_EQ(r.findings[1].kernel, "blur");
  EXPECT_EQ(r.findings[1].location, "k.cu:12");
}

}  // namespace
}  // namespace cudalab::labs
