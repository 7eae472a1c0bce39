// Lab 04's byte variants and sweep variants: what a warp's addresses cost, one pattern at a time.
//
//   char_per_thread / uchar4_packed  add byte_update_value to every byte of n bytes; both
//                                    buffers are rounded up to whole 4-byte words so the packed
//                                    kernel needs no byte-wise tail
//   offset                           float copy of n elements starting `param` floats into
//                                    buffers of n + 32 floats; the floats outside the copied
//                                    range must keep their poison
//   stride                           out[i] = in[i * param]; the input holds n * param floats,
//                                    scattered on the device, so the host never holds it
// Inputs are pseudo-random and never zero (fixed seed per size); outputs are poisoned with 0xFF
// bytes before each launch, and no input byte can produce 0xFF after the add.
#include "coalescing_variants.hpp"
#include "coalescing_verify.hpp"

#include "coalescing/coalescing_index.cuh"

#include "cudalab/device_buffer.hpp"
#include "cudalab/host_data.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace cudalab::labs {
namespace {

using coalescing::add_byte;
using coalescing::packed_words;

std::uint64_t seed_for(coalescing_kind kind, std::size_t n) {
  return (0x0400'0000'0000'0000ull | (std::uint64_t(kind) << 48)) ^ n;
}

launch_shape shape_of(coalescing_kind kind, const launch_config& c) {
  const std::size_t threads = coalescing_threads(kind, c.size);
  const coalescing::launch_dims d =
      coalescing::one_thread_each(threads, static_cast<unsigned>(c.block));
  return {d.grid, 1, d.block, 1, threads};
}

float poison_float() {
  float f;
  const std::uint32_t bits = 0xFFFFFFFFu;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Bytes in 1..255 that never become 0xFF (the poison) after the add.
std::vector<unsigned char> byte_inputs(std::size_t count, std::uint64_t seed) {
  const unsigned char forbidden = static_cast<unsigned char>(0xFF - byte_update_value);
  const std::vector<std::uint32_t> r = random_uints(count, seed, 1, 254);
  std::vector<unsigned char> bytes(count);
  for (std::size_t i = 0; i < count; ++i) {
    auto b = static_cast<unsigned char>(r[i]);
    bytes[i] = b >= forbidden ? static_cast<unsigned char>(b + 1) : b;
  }
  return bytes;
}

class bytes_prepared final : public prepared_variant {
 public:
  bytes_prepared(coalescing_kind kind, const launch_config& c)
      : m_kind(kind),
        m_config(c),
        m_n(c.size),
        m_padded(4 * packed_words(c.size)),
        m_host_in(byte_inputs(m_padded, seed_for(coalescing_kind::char_per_thread, c.size))),
        m_in(m_padded),
        m_out(m_padded) {}

  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void reset(cudaStream_t stream) override { m_out.fill_bytes(0xFF, stream); }
  void launch(cudaStream_t stream) override {
    const auto block = static_cast<unsigned>(m_config.block);
    if (m_kind == coalescing_kind::char_per_thread)
      coalescing::launch_char_per_thread(m_in.data(), m_out.data(), m_n, byte_update_value, block,
                                         stream);
    else
      coalescing::launch_uchar4_packed(reinterpret_cast<const uchar4*>(m_in.data()),
                                       reinterpret_cast<uchar4*>(m_out.data()), m_n,
                                       byte_update_value, block, stream);
  }
  void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
  verify_result verify() override {
    return compare_exact(
        m_host_out.data(), m_n,
        [&](std::size_t i) { return add_byte(m_host_in[i], byte_update_value); }, "out bytes");
  }
  launch_shape shape() const override { return shape_of(m_kind, m_config); }

 private:
  coalescing_kind m_kind;
  launch_config m_config;
  std::size_t m_n, m_padded;
  std::vector<unsigned char> m_host_in, m_host_out;
  device_buffer<unsigned char> m_in, m_out;
};

// What the offset and stride variants share: a float input and an output of their own sizes,
// the output poisoned before each launch and downloaded after it.
class float_pattern_prepared : public prepared_variant {
 public:
  void reset(cudaStream_t stream) override { m_out.fill_bytes(0xFF, stream); }
  void download(cudaStream_t stream) override { m_out.copy_to_host(m_host_out, stream); }
  launch_shape shape() const override { return shape_of(m_kind, m_config); }

 protected:
  float_pattern_prepared(coalescing_kind kind, const launch_config& c, std::size_t in_floats,
                         std::size_t out_floats)
      : m_kind(kind), m_config(c), m_n(c.size), m_in(in_floats), m_out(out_floats) {}
  unsigned block() const { return static_cast<unsigned>(m_config.block); }

  coalescing_kind m_kind;
  launch_config m_config;
  std::size_t m_n;
  std::vector<float> m_host_out;
  device_buffer<float> m_in, m_out;
};

class offset_prepared final : public float_pattern_prepared {
 public:
  explicit offset_prepared(const launch_config& c)
      : float_pattern_prepared(coalescing_kind::offset, c, c.size + max_offset,
                               c.size + max_offset),
        m_offset(static_cast<std::size_t>(c.param)),
        m_host_in(random_floats(m_n + max_offset, seed_for(coalescing_kind::offset, c.size))) {}

  void upload(cudaStream_t stream) override { m_in.copy_from_host(m_host_in, stream); }
  void launch(cudaStream_t stream) override {
    coalescing::launch_offset_copy(m_in.data(), m_out.data(), m_n, static_cast<unsigned>(m_offset),
                                   block(), stream);
  }
  verify_result verify() override {
    const float poison = poison_float();
    return compare_exact(
        m_host_out.data(), m_host_out.size(),
        [&](std::size_t j) { return j >= m_offset && j < m_offset + m_n ? m_host_in[j] : poison; },
        "out (floats outside [offset, offset + n) must stay untouched)");
  }

 private:
  std::size_t m_offset;
  std::vector<float> m_host_in;
};

class stride_prepared final : public float_pattern_prepared {
 public:
  explicit stride_prepared(const launch_config& c)
      : float_pattern_prepared(coalescing_kind::stride, c,
                               c.size * static_cast<std::size_t>(c.param), c.size),
        m_stride(static_cast<std::size_t>(c.param)),
        m_values(random_floats(m_n, seed_for(coalescing_kind::stride, c.size))) {}

  // The input is n * stride floats, mostly never read: poison it on the device, upload the n
  // values packed, and scatter them to the multiples of the stride with one pitched copy
  // (rows of one float, `stride` floats apart). Building the whole input on the host instead
  // moved 2.1 GB over PCIe for the default sweep at 1M.
  void upload(cudaStream_t stream) override {
    m_in.fill_bytes(0xFF, stream);
    device_buffer<float> packed(m_n);
    packed.copy_from_host(m_values, stream);
    CUDALAB_CHECK_CUDA(cudaMemcpy2DAsync(m_in.data(), m_stride * sizeof(float), packed.data(),
                                         sizeof(float), sizeof(float), m_n,
                                         cudaMemcpyDeviceToDevice, stream));
    CUDALAB_CHECK_CUDA(cudaStreamSynchronize(stream));  // before `packed` is freed
  }
  void launch(cudaStream_t stream) override {
    coalescing::launch_stride_gather(m_in.data(), m_out.data(), m_n,
                                     static_cast<unsigned>(m_stride), block(), stream);
  }
  verify_result verify() override {
    return compare_exact(
        m_host_out.data(), m_n, [&](std::size_t i) { return m_values[i]; }, "out");
  }

 private:
  std::size_t m_stride;
  std::vector<float> m_values;
};

}  // namespace

std::unique_ptr<prepared_variant> prepare_pattern(coalescing_kind kind, const launch_config& c) {
  switch (kind) {
    case coalescing_kind::char_per_thread:
    case coalescing_kind::uchar4_packed:
      return std::make_unique<bytes_prepared>(kind, c);
    case coalescing_kind::offset:
      if (c.param < 0 || c.param > max_offset)
        throw usage_error("offset " + std::to_string(c.param) + ": use 0.." +
                          std::to_string(max_offset));
      return std::make_unique<offset_prepared>(c);
    case coalescing_kind::stride:
      if (c.param < 1 || c.param > max_stride)
        throw usage_error("stride " + std::to_string(c.param) + ": use 1.." +
                          std::to_string(max_stride));
      return std::make_unique<stride_prepared>(c);
    default:
      break;
  }
  throw error("prepare_pattern: not a byte or pattern variant");
}

}  // namespace cudalab::labs
