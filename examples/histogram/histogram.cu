// A standalone CUDA program the kit did not write for a lab: a histogram of n bytes into 16 bins,
// each thread counting its elements in a private array before it adds them to the global bins.
// The private array is indexed by the data, so the compiler cannot keep it in registers: it lives
// in local memory (each thread's slice of device memory, cached in L1 and L2), and every element
// costs a local load and a local store. `cudalab profile` shows that traffic under the kernel's
// row; a learner's fix keeps the bins in shared memory instead.
//
// Usage: cudalab_example_histogram [n]   (default 16777216; exit 2 on a bad argument)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    const cudaError_t status = (call);                                                       \
    if (status != cudaSuccess) {                                                             \
      std::fprintf(stderr, "histogram: %s failed: %s\n", #call, cudaGetErrorString(status)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

constexpr unsigned bins = 16;
constexpr unsigned per_thread = 64;  // elements a thread counts

__global__ void histogram_private(const unsigned char* data, std::size_t n, unsigned* counts) {
  unsigned mine[bins] = {};
  const std::size_t first =
      (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * per_thread;
  for (unsigned i = 0; i < per_thread; ++i)
    if (first + i < n) ++mine[data[first + i] % bins];
  for (unsigned b = 0; b < bins; ++b)
    if (mine[b]) atomicAdd(&counts[b], mine[b]);
}

int main(int argc, char** argv) {
  std::size_t n = std::size_t{1} << 24;
  if (argc > 2 ||
      (argc == 2 && std::string(argv[1]).find_first_not_of("0123456789") != std::string::npos)) {
    std::fprintf(stderr, "usage: %s [bytes, a whole number]\n", argv[0]);
    return 2;
  }
  if (argc == 2) n = std::strtoull(argv[1], nullptr, 10);
  if (n == 0 || n > (std::size_t{1} << 31)) {
    std::fprintf(stderr, "histogram: the count must be 1 to 2147483648\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "histogram: no CUDA device\n");
    return 3;
  }
  std::vector<unsigned char> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<unsigned char>((i * 7 + i / 13) & 0xff);
  unsigned char* data = nullptr;
  unsigned* counts = nullptr;
  CHECK(cudaMalloc(&data, n));
  CHECK(cudaMalloc(&counts, bins * sizeof(unsigned)));
  CHECK(cudaMemcpy(data, host.data(), n, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(counts, 0, bins * sizeof(unsigned)));
  const unsigned block = 256;
  const std::size_t threads = (n + per_thread - 1) / per_thread;
  const unsigned grid = static_cast<unsigned>((threads + block - 1) / block);
  histogram_private<<<grid, block>>>(data, n, counts);
  CHECK(cudaGetLastError());
  std::vector<unsigned> got(bins);
  CHECK(cudaMemcpy(got.data(), counts, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(data));
  CHECK(cudaFree(counts));
  std::vector<unsigned> want(bins);
  for (unsigned char v : host) ++want[v % bins];
  std::size_t wrong = 0;
  for (unsigned b = 0; b < bins; ++b) wrong += got[b] != want[b];
  std::printf("histogram: %zu bytes into %u bins, %zu wrong\n", n, bins, wrong);
  return wrong == 0 ? 0 : 1;
}
