// Exact comparison for lab 04: every variant moves or adds without rounding differences (one
// float add on both sides, byte adds modulo 256), so the GPU must match the CPU bit for bit.
#pragma once

#include "cudalab/lab.hpp"
#include "cudalab/parallel_chunks.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace cudalab::labs {

// Compares got[0..n) with expected(i) bit for bit. `what` names the buffer in the detail:
// "out: 3 of 3000 floats wrong; first [17] = nan, expected 1.5".
template <class T, class Expected>
verify_result compare_exact(const T* got, std::size_t n, Expected&& expected,
                            const std::string& what) {
  // Per chunk: how many differ and the first that does; merged in order (parallel_chunks.hpp).
  struct finding {
    std::size_t bad = 0, first = 0;
    T first_expected{};
  };
  std::vector<finding> found(std::max(1u, std::thread::hardware_concurrency()));
  parallel_chunks(n, [&](std::size_t begin, std::size_t end, std::size_t c) {
    finding f;
    for (std::size_t i = begin; i < end; ++i) {
      const T e = expected(i);
      if (std::memcmp(&got[i], &e, sizeof(T)) != 0 && f.bad++ == 0) {
        f.first = i;
        f.first_expected = e;
      }
    }
    found[c] = f;
  });
  std::size_t bad = 0, first = 0;
  T first_expected{};
  for (const finding& f : found) {
    if (f.bad > 0 && bad == 0) {
      first = f.first;
      first_expected = f.first_expected;
    }
    bad += f.bad;
  }
  if (bad == 0) return {true, "max abs err 0 (exact)"};
  std::ostringstream s;
  s << what << ": " << bad << " of " << n << " wrong; first [" << first << "] = " << +got[first]
    << ", expected " << +first_expected;
  return {false, s.str()};
}

// The first failure of several checks, or `ok_detail` when all pass.
inline verify_result first_failure(std::initializer_list<verify_result> results,
                                   std::string ok_detail) {
  for (const auto& r : results)
    if (!r.ok) return r;
  return {true, std::move(ok_detail)};
}

}  // namespace cudalab::labs
