// RAII CUDA stream, event and graph (move-only: each owns one handle).
#pragma once

#include "cudalab/check.hpp"

#include <cuda_runtime_api.h>

#include <utility>

namespace cudalab {

class cuda_stream {
 public:
  cuda_stream() { CUDALAB_CHECK_CUDA(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking)); }
  ~cuda_stream() {
    if (m_stream) CUDALAB_CHECK_CUDA_NOEXCEPT(cudaStreamDestroy(m_stream));
  }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  cuda_stream(cuda_stream&& other) noexcept : m_stream(std::exchange(other.m_stream, nullptr)) {}
  cuda_stream& operator=(cuda_stream&& other) noexcept {
    std::swap(m_stream, other.m_stream);
    return *this;
  }
  cudaStream_t get() const noexcept { return m_stream; }
  void synchronize() const { CUDALAB_CHECK_CUDA(cudaStreamSynchronize(m_stream)); }

 private:
  cudaStream_t m_stream = nullptr;
};

class cuda_event {
 public:
  cuda_event() { CUDALAB_CHECK_CUDA(cudaEventCreate(&m_event)); }
  ~cuda_event() {
    if (m_event) CUDALAB_CHECK_CUDA_NOEXCEPT(cudaEventDestroy(m_event));
  }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  cuda_event(cuda_event&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}
  cuda_event& operator=(cuda_event&& other) noexcept {
    std::swap(m_event, other.m_event);
    return *this;
  }
  cudaEvent_t get() const noexcept { return m_event; }
  void record(cudaStream_t stream) { CUDALAB_CHECK_CUDA(cudaEventRecord(m_event, stream)); }

 private:
  cudaEvent_t m_event = nullptr;
};

// A captured CUDA graph (cudaStreamEndCapture hands one over, or nullptr).
class cuda_graph {
 public:
  cuda_graph() = default;
  ~cuda_graph() {
    if (m_graph) CUDALAB_CHECK_CUDA_NOEXCEPT(cudaGraphDestroy(m_graph));
  }
  cuda_graph(const cuda_graph&) = delete;
  cuda_graph& operator=(const cuda_graph&) = delete;
  cuda_graph(cuda_graph&& other) noexcept : m_graph(std::exchange(other.m_graph, nullptr)) {}
  cuda_graph& operator=(cuda_graph&& other) noexcept {
    std::swap(m_graph, other.m_graph);
    return *this;
  }
  cudaGraph_t get() const noexcept { return m_graph; }
  // Where cudaStreamEndCapture writes the graph it hands over (this object then owns it).
  cudaGraph_t* receive() noexcept { return &m_graph; }

 private:
  cudaGraph_t m_graph = nullptr;
};

}  // namespace cudalab
