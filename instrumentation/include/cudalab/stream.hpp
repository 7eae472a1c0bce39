// RAII CUDA stream, event and graph: each owns one handle through unique_handle.hpp.
#pragma once

#include "cudalab/check.hpp"
#include "cudalab/unique_handle.hpp"

#include <cuda_runtime_api.h>

namespace cudalab {

namespace detail {
struct destroy_stream {
  void operator()(cudaStream_t s) const noexcept {
    CUDALAB_CHECK_CUDA_NOEXCEPT(cudaStreamDestroy(s));
  }
};
struct destroy_event {
  void operator()(cudaEvent_t e) const noexcept {
    CUDALAB_CHECK_CUDA_NOEXCEPT(cudaEventDestroy(e));
  }
};
struct destroy_graph {
  void operator()(cudaGraph_t g) const noexcept {
    CUDALAB_CHECK_CUDA_NOEXCEPT(cudaGraphDestroy(g));
  }
};
}  // namespace detail

// A non-blocking stream (it does not wait for the legacy default stream).
class cuda_stream {
 public:
  cuda_stream() {
    CUDALAB_CHECK_CUDA(cudaStreamCreateWithFlags(m_stream.receive(), cudaStreamNonBlocking));
  }
  cudaStream_t get() const noexcept { return m_stream.get(); }
  void synchronize() const { CUDALAB_CHECK_CUDA(cudaStreamSynchronize(m_stream.get())); }

 private:
  unique_handle<cudaStream_t, detail::destroy_stream> m_stream;
};

class cuda_event {
 public:
  cuda_event() { CUDALAB_CHECK_CUDA(cudaEventCreate(m_event.receive())); }
  cudaEvent_t get() const noexcept { return m_event.get(); }
  void record(cudaStream_t stream) { CUDALAB_CHECK_CUDA(cudaEventRecord(m_event.get(), stream)); }

 private:
  unique_handle<cudaEvent_t, detail::destroy_event> m_event;
};

// A captured CUDA graph (cudaStreamEndCapture hands one over, or nullptr).
class cuda_graph {
 public:
  cudaGraph_t get() const noexcept { return m_graph.get(); }
  // Where cudaStreamEndCapture writes the graph it hands over (this object then owns it).
  cudaGraph_t* receive() noexcept { return m_graph.receive(); }

 private:
  unique_handle<cudaGraph_t, detail::destroy_graph> m_graph;
};

}  // namespace cudalab
