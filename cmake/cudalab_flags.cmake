# Compiler flags shared by every cudalab target (through the cudalab_options interface target).
add_library(cudalab_options INTERFACE)
add_library(cudalab::options ALIAS cudalab_options)

target_compile_options(cudalab_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr>
  # Release: optimized, with line info so Nsight Compute and cuda-gdb can show source lines.
  $<$<AND:$<CONFIG:Release,RelWithDebInfo>,$<COMPILE_LANGUAGE:CUDA>>:-lineinfo>
  # Debug: device code steppable in cuda-gdb. -G changes counter values, so counter tests
  # only assert on the release build (see cudalab_counter_build).
  $<$<AND:$<CONFIG:Debug>,$<COMPILE_LANGUAGE:CUDA>>:-G>
  $<$<AND:$<CONFIG:Debug>,$<COMPILE_LANGUAGE:CXX>>:-O0>
)
target_compile_definitions(cudalab_options INTERFACE
  $<$<CONFIG:Debug>:CUDALAB_DEVICE_DEBUG=1>
  CUDALAB_VERSION="${PROJECT_VERSION}"
)
