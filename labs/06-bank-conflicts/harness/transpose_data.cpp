// Lab 06's host data (transpose_data.hpp).
#include "transpose_data.hpp"

#include "transpose/transpose_index.cuh"

#include "cudalab/host_data.hpp"
#include "cudalab/parallel_chunks.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

namespace cudalab::labs::transpose_data {
namespace {

// An odd multiple of 2^-bits in (-1, 1): never 0, exact in T.
template <class T>
T odd_fraction(std::uint64_t h, int bits) {
  const auto step = static_cast<std::int64_t>(h >> (64 - bits));  // 0 .. 2^bits - 1
  const std::int64_t one = std::int64_t{1} << bits;
  return static_cast<T>(static_cast<double>(2 * step + 1 - one) / static_cast<double>(one));
}

template <class T>
bool is_poison(T v) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  for (unsigned char b : bytes)
    if (b != 0xFF) return false;
  return true;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace

template <>
float input_value<float>(std::size_t i) {
  return odd_fraction<float>(splitmix64(varied_seed(i)), 23);
}
template <>
double input_value<double>(std::size_t i) {
  return odd_fraction<double>(splitmix64(varied_seed(i)), 52);
}

template <class T>
std::vector<T> make_input(std::size_t rows, std::size_t cols) {
  std::vector<T> v(transpose::padded_elements(rows, cols), std::numeric_limits<T>::quiet_NaN());
  parallel_chunks(rows * cols, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) v[i] = input_value<T>(i);
  });
  return v;
}

template <class T>
verify_result verify(result_shape shape, std::size_t rows, std::size_t cols,
                     const std::vector<T>& out) {
  const std::size_t needed = transpose::padded_elements(rows, cols);
  if (out.size() < needed)
    return {false, "result buffer of " + std::to_string(out.size()) + " elements, expected " +
                       std::to_string(needed)};
  // Output element o holds input element (r, c); out_width is the output's row length.
  const bool transposed = shape == result_shape::transpose;
  const std::size_t out_width = transposed ? rows : cols;
  std::atomic<std::size_t> bad{0};
  std::atomic<std::size_t> first_bad{std::numeric_limits<std::size_t>::max()};
  parallel_chunks(rows * cols, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::size_t local_bad = 0, local_first = std::numeric_limits<std::size_t>::max();
    for (std::size_t o = begin; o < end; ++o) {
      const std::size_t orow = o / out_width, ocol = o % out_width;
      const std::size_t source = transposed ? transpose::element_index(ocol, orow, cols) : o;
      if (!same_bits(out[o], input_value<T>(source))) {
        if (local_bad++ == 0) local_first = o;
      }
    }
    bad += local_bad;
    std::size_t seen = first_bad.load();
    while (local_first < seen && !first_bad.compare_exchange_weak(seen, local_first)) {
    }
  });
  std::size_t band_written = 0;
  for (std::size_t i = rows * cols; i < out.size(); ++i) band_written += !is_poison(out[i]);
  const std::string matrix =
      std::to_string(transposed ? cols : rows) + " x " + std::to_string(transposed ? rows : cols);
  char buf[256];
  if (bad > 0) {
    const std::size_t o = first_bad.load();
    const std::size_t orow = o / out_width, ocol = o % out_width;
    const std::size_t source = transposed ? transpose::element_index(ocol, orow, cols) : o;
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu elements wrong, first out[%zu][%zu] = %.9g, "
                  "expected %.9g",
                  bad.load(), rows * cols, orow, ocol, static_cast<double>(out[o]),
                  static_cast<double>(input_value<T>(source)));
    std::string detail = buf;
    if (band_written > 0)
      detail += "; " + std::to_string(band_written) + " elements written past the result";
    return {false, detail};
  }
  if (band_written > 0)
    return {false,
            std::to_string(band_written) + " elements written past the " + matrix + " result"};
  return {true, "all " + matrix + " elements exact"};
}

template <class T>
void cpu_transpose(const std::vector<T>& in, std::vector<T>& out, std::size_t rows,
                   std::size_t cols) {
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      out[transpose::element_index(c, r, rows)] = in[transpose::element_index(r, c, cols)];
}

template std::vector<float> make_input<float>(std::size_t, std::size_t);
template std::vector<double> make_input<double>(std::size_t, std::size_t);
template verify_result verify<float>(result_shape, std::size_t, std::size_t,
                                     const std::vector<float>&);
template verify_result verify<double>(result_shape, std::size_t, std::size_t,
                                      const std::vector<double>&);
template void cpu_transpose<float>(const std::vector<float>&, std::vector<float>&, std::size_t,
                                   std::size_t);
template void cpu_transpose<double>(const std::vector<double>&, std::vector<double>&, std::size_t,
                                    std::size_t);

}  // namespace cudalab::labs::transpose_data
