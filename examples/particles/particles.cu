// A standalone CUDA program the kit did not write for a lab: n particles of 32 bytes each
// (position, velocity, mass, charge: an array of structures), advanced one time step. Each thread
// reads its particle's position and velocity and writes its position back, so the 32 lanes of a
// warp's load of one component are 32 bytes apart: of each 32-byte sector it touches, it asked
// for 4 bytes. It is here to point the tools at a program the kit did not write (ncu,
// compute-sanitizer, nsys work on it as on any CUDA program).
//
// Usage: cudalab_example_particles [particles]   (default 4194304; exit 2 on a bad argument)
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                          \
  do {                                                                                       \
    const cudaError_t status = (call);                                                       \
    if (status != cudaSuccess) {                                                             \
      std::fprintf(stderr, "particles: %s failed: %s\n", #call, cudaGetErrorString(status)); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

struct particle {
  float3 position;
  float3 velocity;
  float mass;
  float charge;
};

__global__ void advance(particle* p, std::size_t n, float dt) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  p[i].position.x += p[i].velocity.x * dt;
  p[i].position.y += p[i].velocity.y * dt;
  p[i].position.z += p[i].velocity.z * dt;
}

int main(int argc, char** argv) {
  std::size_t n = std::size_t{1} << 22;
  if (argc > 2 ||
      (argc == 2 && std::string(argv[1]).find_first_not_of("0123456789") != std::string::npos)) {
    std::fprintf(stderr, "usage: %s [particles, a whole number]\n", argv[0]);
    return 2;
  }
  if (argc == 2) n = std::strtoull(argv[1], nullptr, 10);
  if (n == 0 || n > (std::size_t{1} << 28)) {
    std::fprintf(stderr, "particles: the count must be 1 to 268435456\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "particles: no CUDA device\n");
    return 3;
  }
  std::vector<particle> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = {{float(i % 97), float(i % 89), float(i % 83)}, {1.0f, -2.0f, 0.5f}, 1.0f, 1.0f};
  particle* device = nullptr;
  CHECK(cudaMalloc(&device, n * sizeof(particle)));
  CHECK(cudaMemcpy(device, host.data(), n * sizeof(particle), cudaMemcpyHostToDevice));
  const unsigned block = 256;
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  const float dt = 0.25f;
  advance<<<grid, block>>>(device, n, dt);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(host.data(), device, n * sizeof(particle), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(device));
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const float x = float(i % 97) + 0.25f, y = float(i % 89) - 0.5f, z = float(i % 83) + 0.125f;
    wrong += host[i].position.x != x || host[i].position.y != y || host[i].position.z != z;
  }
  std::printf("particles: %zu advanced, %zu wrong\n", n, wrong);
  return wrong == 0 ? 0 : 1;
}
