// The NVTX ranges open on each thread, for an injection library that reports, with each launch,
// the ranges it was made in (`cudalab profile --nvtx`). NVTX calls a tool only through the library
// named by NVTX_INJECTION64_PATH, which it loads at the program's first NVTX call (often before
// the first CUDA call): nvtx_ranges.cpp, compiled into the library, exports the entry NVTX looks
// for there (InitializeInjectionNvtx2) and keeps each thread's push/pop ranges, so the library
// names itself in that variable too. Start/end ranges, which need not nest or stay on one thread,
// are not kept: no launch is "inside" one in a way the thread could tell.
#pragma once

#include <string>

namespace cudalab::injection {

// The push/pop ranges open on the calling thread, outermost first, joined by '/': "train/step".
// A range of a domain of the program's own is named "domain:message". Empty when none is open,
// or when NVTX never loaded this library.
std::string nvtx_path_of_this_thread();

}  // namespace cudalab::injection
