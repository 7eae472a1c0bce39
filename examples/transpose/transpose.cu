// A standalone CUDA program the kit did not write for a lab: an n x n float matrix transposed
// twice, by a naive kernel (rows read, columns written: each warp's 32 stores land in 32
// different sectors) and by a 32 x 32 tile in shared memory padded to 33 columns (both sides
// coalesced, no bank conflict). `cudalab profile --
// build/release/examples/cudalab_example_transpose` is meant to show the two side by side. Each
// launch sits in an NVTX range ("main/naive", "main/tiled"), as a real program marks its phases,
// so that a profiler can pick one (`cudalab profile --nvtx tiled`); "main" opens before the first
// CUDA call.
//
// Usage: cudalab_example_transpose [n]   (default 4096; exit 2 on a bad argument)
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    const cudaError_t status = (call);                                                       \
    if (status != cudaSuccess) {                                                             \
      std::fprintf(stderr, "transpose: %s failed: %s\n", #call, cudaGetErrorString(status)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__global__ void transpose_naive(const float* in, float* out, unsigned n) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n && c < n)
    out[static_cast<std::size_t>(c) * n + r] = in[static_cast<std::size_t>(r) * n + c];
}

__global__ void transpose_tiled(const float* in, float* out, unsigned n) {
  __shared__ float tile[32][33];  // one column of padding: a tile column spans 32 banks
  unsigned c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;
  if (r < n && c < n) tile[threadIdx.y][threadIdx.x] = in[static_cast<std::size_t>(r) * n + c];
  __syncthreads();
  c = blockIdx.y * 32 + threadIdx.x;
  r = blockIdx.x * 32 + threadIdx.y;
  if (r < n && c < n) out[static_cast<std::size_t>(r) * n + c] = tile[threadIdx.x][threadIdx.y];
}

std::size_t count_wrong(const std::vector<float>& in, const std::vector<float>& out, unsigned n) {
  std::size_t wrong = 0;
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n; ++c) wrong += out[c * n + r] != in[r * n + c];
  return wrong;
}

int main(int argc, char** argv) {
  unsigned long n = 4096;
  if (argc > 2 ||
      (argc == 2 && std::string(argv[1]).find_first_not_of("0123456789") != std::string::npos)) {
    std::fprintf(stderr, "usage: %s [n, a whole number]\n", argv[0]);
    return 2;
  }
  if (argc == 2) n = std::strtoul(argv[1], nullptr, 10);
  if (n == 0 || n > 16384) {
    std::fprintf(stderr, "transpose: n must be 1 to 16384\n");
    return 2;
  }
  nvtxRangePushA("main");
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "transpose: no CUDA device\n");
    return 3;
  }
  const std::size_t elements = static_cast<std::size_t>(n) * n, bytes = elements * sizeof(float);
  std::vector<float> in(elements), out(elements);
  for (std::size_t i = 0; i < elements; ++i) in[i] = static_cast<float>(i % 65521);
  float *d_in = nullptr, *d_out = nullptr;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, in.data(), bytes, cudaMemcpyHostToDevice));
  const unsigned side = static_cast<unsigned>(n), tiles = (side + 31) / 32;
  std::size_t wrong = 0;
  nvtxRangePushA("naive");
  transpose_naive<<<dim3(tiles, tiles), dim3(32, 32)>>>(d_in, d_out, side);
  CHECK(cudaGetLastError());
  nvtxRangePop();
  CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  wrong += count_wrong(in, out, side);
  CHECK(cudaMemset(d_out, 0, bytes));
  nvtxRangePushA("tiled");
  transpose_tiled<<<dim3(tiles, tiles), dim3(32, 32)>>>(d_in, d_out, side);
  CHECK(cudaGetLastError());
  nvtxRangePop();
  CHECK(cudaMemcpy(out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
  wrong += count_wrong(in, out, side);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  nvtxRangePop();
  std::printf("transpose: %lu x %lu, twice, %zu wrong\n", n, n, wrong);
  return wrong == 0 ? 0 : 1;
}
