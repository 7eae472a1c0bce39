// The matrix-product labs' host data (matmul_data.hpp).
#include "matmul_data.hpp"

#include "matmul/matmul_index.cuh"

#include "cudalab/host_data.hpp"
#include "cudalab/parallel_chunks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <string>

namespace cudalab::labs::matmul_data {
namespace {

constexpr std::uint32_t poison_bits = 0xFFFFFFFFu;  // what fill_bytes(0xFF) leaves in a float

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

}  // namespace

float input_value(unsigned which, std::size_t i) {
  const std::uint64_t h = splitmix64(varied_seed((std::uint64_t{which} << 56) ^ i));
  // 2^23 values in (-1, 1), odd multiples of 2^-23: never 0, each exact in a float.
  const auto step = static_cast<std::int64_t>(h >> 41);  // 0 .. 2^23 - 1
  return static_cast<float>((2 * step + 1 - (std::int64_t{1} << 23))) / static_cast<float>(1 << 23);
}

std::vector<float> make_input(unsigned which, std::size_t n) {
  std::vector<float> v(matmul::padded_elements(n), std::numeric_limits<float>::quiet_NaN());
  parallel_chunks(n * n, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) v[i] = input_value(which, i);
  });
  return v;
}

std::vector<std::size_t> sampled_outputs(std::size_t n) {
  std::vector<std::size_t> lines;
  for (std::size_t v : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64},
                        std::size_t{127}, std::size_t{128}, n / 2, n - 2, n - 1})
    if (v < n) lines.push_back(v);
  std::vector<std::size_t> out;
  for (std::size_t r : lines)
    for (std::size_t j = 0; j < n; ++j) out.push_back(r * n + j);
  for (std::size_t col : lines)
    for (std::size_t i = 0; i < n; ++i) out.push_back(i * n + col);
  for (std::size_t s = 0; s < random_outputs; ++s)
    out.push_back(splitmix64(0xC0FFEEull ^ (s << 20) ^ n) % (n * n));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

// Every output, rows in parallel, each in (i, k, j) order so B is read row by row.
void full_reference(std::size_t n, reference& r) {
  r.c.assign(n * n, 0.0);
  r.c_abs.assign(n * n, 0.0);
  std::vector<double> a(n * n), b(n * n);
  for (std::size_t i = 0; i < n * n; ++i) {
    a[i] = input_value(0, i);
    b[i] = input_value(1, i);
  }
  parallel_chunks(
      n,
      [&](std::size_t first_row, std::size_t end_row, std::size_t) {
        for (std::size_t i = first_row; i < end_row; ++i)
          for (std::size_t k = 0; k < n; ++k) {
            const double aik = a[i * n + k];
            const double* brow = &b[k * n];
            double* crow = &r.c[i * n];
            double* crow_abs = &r.c_abs[i * n];
            for (std::size_t j = 0; j < n; ++j) {
              crow[j] += aik * brow[j];
              crow_abs[j] += std::fabs(aik * brow[j]);
            }
          }
      },
      1);
}

// The sampled outputs only: each a dot product of n terms, over the cores.
void sampled_reference(std::size_t n, reference& r) {
  r.index = sampled_outputs(n);
  r.c.assign(r.index.size(), 0.0);
  r.c_abs.assign(r.index.size(), 0.0);
  const std::vector<float> a = make_input(0, n), b = make_input(1, n);
  parallel_chunks(
      r.index.size(),
      [&](std::size_t begin, std::size_t end, std::size_t) {
        for (std::size_t s = begin; s < end; ++s) {
          const std::size_t i = r.index[s] / n, j = r.index[s] % n;
          double sum = 0, sum_abs = 0;
          for (std::size_t k = 0; k < n; ++k) {
            const double p = static_cast<double>(a[i * n + k]) * static_cast<double>(b[k * n + j]);
            sum += p;
            sum_abs += std::fabs(p);
          }
          r.c[s] = sum;
          r.c_abs[s] = sum_abs;
        }
      },
      64);
}

}  // namespace

std::shared_ptr<const reference> reference_for(std::size_t n) {
  static std::mutex lock;
  // By size and input variation: the inputs, and so the product, follow both.
  static std::map<std::pair<std::size_t, std::uint64_t>, std::shared_ptr<const reference>> cache;
  const std::pair<std::size_t, std::uint64_t> key{n, input_variation()};
  {
    const std::lock_guard<std::mutex> guard(lock);
    const auto it = cache.find(key);
    if (it != cache.end()) return it->second;
  }
  auto r = std::make_shared<reference>();
  if (n <= full_check_max_side)
    full_reference(n, *r);
  else
    sampled_reference(n, *r);
  const std::lock_guard<std::mutex> guard(lock);
  if (cache.size() > 4) cache.clear();  // a size sweep keeps a few products, not all of them
  return cache.emplace(key, std::move(r)).first->second;
}

double tolerance(std::size_t n) { return static_cast<double>(n + 2) * std::ldexp(1.0, -24); }

verify_result verify_product(std::size_t n, const std::vector<float>& c) {
  if (c.size() < matmul::padded_elements(n))
    return {false, "result buffer of " + std::to_string(c.size()) + " floats, expected " +
                       std::to_string(matmul::padded_elements(n))};
  const std::shared_ptr<const reference> ref = reference_for(n);
  const double tol = tolerance(n);
  const std::size_t checked = ref->sampled() ? ref->index.size() : n * n;
  std::size_t bad = 0, first_bad = 0;
  double worst = 0, expected_first = 0;
  for (std::size_t s = 0; s < checked; ++s) {
    const std::size_t i = ref->sampled() ? ref->index[s] : s;
    const double err = std::fabs(static_cast<double>(c[i]) - ref->c[s]);
    const double scaled = err / (ref->c_abs[s] > 0 ? ref->c_abs[s] : 1.0);
    if (!(scaled <= tol)) {  // NaN fails too
      if (bad++ == 0) {
        first_bad = i;
        expected_first = ref->c[s];
      }
      continue;
    }
    worst = std::max(worst, scaled);
  }
  std::size_t band_written = 0;
  for (std::size_t i = n * n; i < c.size(); ++i)
    if (bits_of(c[i]) != poison_bits) ++band_written;
  char buf[256];
  if (bad > 0) {
    std::snprintf(buf, sizeof buf,
                  "%zu of %zu %soutputs wrong, first C[%zu][%zu] = %g, expected %g", bad, checked,
                  ref->sampled() ? "sampled " : "", first_bad / n, first_bad % n,
                  static_cast<double>(c[first_bad]), expected_first);
    std::string detail = buf;
    if (band_written > 0) detail += "; " + std::to_string(band_written) + " floats written past C";
    return {false, detail};
  }
  if (band_written > 0)
    return {false, std::to_string(band_written) + " floats written past the " + std::to_string(n) +
                       " x " + std::to_string(n) + " result"};
  std::snprintf(buf, sizeof buf, "max err %.1e <= %.1e of sum |a b|", worst, tol);
  if (ref->sampled())
    return {true, std::string(buf) + ", sampled: " + std::to_string(checked) + " of " +
                      std::to_string(n * n) + " outputs"};
  return {true, buf};
}

void cpu_product(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                 std::size_t n) {
  std::fill(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(n * n), 0.0f);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < n; ++k) {
      const float aik = a[i * n + k];
      const float* brow = &b[k * n];
      float* crow = &c[i * n];
      for (std::size_t j = 0; j < n; ++j) crow[j] += aik * brow[j];
    }
}

}  // namespace cudalab::labs::matmul_data
