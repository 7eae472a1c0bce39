// NVTX's loader binds its weak InitializeInjectionNvtx2_fnptr to this definition and calls the
// injection through it at the first NVTX call: the test's way to load injection/nvtx_ranges.cpp
// as the program's NVTX tool without a library. A file of its own, without NVTX's headers,
// whose weak declaration of the same symbol would clash with the definition.
#include <cstdint>

extern "C" {
using export_table_getter = const void* (*)(std::uint32_t);
int InitializeInjectionNvtx2(export_table_getter);
int (*InitializeInjectionNvtx2_fnptr)(export_table_getter) = InitializeInjectionNvtx2;
}
