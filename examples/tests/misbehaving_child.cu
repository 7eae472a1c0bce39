// A CUDA program that ends badly on purpose, for the tests of `cudalab profile` on a program that
// does not end well: each way launches one small kernel (`touch`, 1,024 floats written by 32
// warps), waits for it, says so, then ends as its argument asks.
//
// Usage: cudalab_misbehaving_child <abort|exit-3|hang|no-kernel>
//   abort      SIGABRT after the kernel (a crash: the report keeps the launch, marked incomplete)
//   exit-3     exit status 3 after the kernel (the report is complete; the status is kept)
//   hang       sleeps ten minutes after the kernel (for profile's --timeout)
//   no-kernel  makes a CUDA context and launches nothing
// Exit 2 on a bad argument, 3 where there is no CUDA device.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#define CHECK(call)                                                     \
  do {                                                                  \
    const cudaError_t status = (call);                                  \
    if (status != cudaSuccess) {                                        \
      std::fprintf(stderr, "misbehaving_child: %s failed: %s\n", #call, \
                   cudaGetErrorString(status));                         \
      std::exit(1);                                                     \
    }                                                                   \
  } while (0)

__global__ void touch(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<float>(i);
}

int main(int argc, char** argv) {
  const std::string way = argc == 2 ? argv[1] : "";
  if (way != "abort" && way != "exit-3" && way != "hang" && way != "no-kernel") {
    std::fprintf(stderr, "usage: %s <abort|exit-3|hang|no-kernel>\n", argv[0]);
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "misbehaving_child: no CUDA device\n");
    return 3;
  }
  CHECK(cudaFree(nullptr));  // the context, for no-kernel
  if (way == "no-kernel") return 0;
  constexpr int n = 1024;
  float* out = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  touch<<<n / 256, 256>>>(out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("misbehaving_child: touch ran; now %s\n", way.c_str());
  std::fflush(stdout);
  if (way == "abort") std::abort();
  if (way == "hang") std::this_thread::sleep_for(std::chrono::minutes(10));
  CHECK(cudaFree(out));
  return 3;  // exit-3
}
