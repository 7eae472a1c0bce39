// The CUDA driver calls that launch one kernel, which the injection libraries on CUPTI subscribe
// to (the runtime's launches reach the driver through them). A graph's launch (cuGraphLaunch) is
// not among them: it starts many kernels at once, and only a library that can match them to it
// (by CUPTI's correlation id) watches it too.
#pragma once

#include <cupti.h>

#include <array>

namespace cudalab::injection {

inline constexpr std::array<CUpti_CallbackId, 6> kernel_launch_calls{
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz};

}  // namespace cudalab::injection
