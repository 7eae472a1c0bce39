#!/usr/bin/env bash
# scripts/setup.sh [preset]: installs what is missing (Debian/Ubuntu), configures and builds.
#   preset: release (default), debug (-g -G, for cuda-gdb) or ci.
#   CUDAARCHS=80 (or "80;90", native): the GPU architectures to build for. Without it the build
#   folder keeps the architectures it was configured with (first time: native when a GPU is
#   visible, else 90); docs/building.md.
# Idempotent: a second run only rebuilds what changed. Never asks for input.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
case "$preset" in release|debug|ci) ;; *) echo "setup.sh: unknown preset '$preset' (release, debug, ci)" >&2; exit 2 ;; esac

export PATH="/usr/local/cuda/bin:$PATH"
if ! command -v nvcc >/dev/null; then
  echo "setup.sh: nvcc not found: install the CUDA Toolkit 13 (https://developer.nvidia.com/cuda-downloads) so that /usr/local/cuda/bin/nvcc exists" >&2
  exit 1
fi

need=()
command -v cmake >/dev/null || need+=(cmake)
[ -f /usr/include/boost/program_options.hpp ] && ls /usr/lib/*/libboost_program_options.a >/dev/null 2>&1 || need+=(libboost-program-options-dev)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
[ -f /usr/include/nlohmann/json.hpp ] || need+=(nlohmann-json3-dev)
command -v python3 >/dev/null || need+=(python3)
# scripts/plot.py draws the labs' figures with matplotlib.
python3 -c 'import matplotlib' 2>/dev/null || need+=(python3-matplotlib)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup.sh: installing ${need[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
python3 -c 'import matplotlib' 2>/dev/null ||
  echo "setup.sh: note: $(command -v python3) cannot import matplotlib (Debian's package serves" \
       "/usr/bin/python3): scripts/plot.py needs 'python3 -m pip install matplotlib'" >&2
# cuobjdump and nvdisasm, which this CUDA install may lack: the build embeds the reduction
# kernels' SASS so that lab 05 can predict instruction counts from the code it really runs.
if ! command -v nvdisasm >/dev/null && [ ! -x .tools/cuda/nvidia/cu13/bin/nvdisasm ]; then
  echo "setup.sh: installing cuobjdump and nvdisasm (NVIDIA's wheels) into .tools/cuda"
  command -v pip3 >/dev/null || python3 -m pip --version >/dev/null 2>&1 || {
    sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-pip
  }
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check \
      --no-deps --target .tools/cuda \
      "nvidia-cuda-cuobjdump==13.5.37" "nvidia-cuda-nvdisasm==13.5.37" \
    || echo "setup.sh: could not install cuobjdump and nvdisasm: lab 05 will print no" \
            "instruction predictions" >&2
fi
# The Compute Sanitizer API, which the memory tracer (cudalab run --trace) is built on: the CUDA
# Toolkit has it in compute-sanitizer/; without it, NVIDIA's wheel of the same CUDA 13.0 series
# as the toolkit and driver (13.0.x) goes in .tools/sanitizer. Without either, cudalab builds
# without the tracer and `run --trace` says how to get it.
cuda_root=$(dirname "$(dirname "$(command -v nvcc)")")
if [ ! -f "$cuda_root/compute-sanitizer/include/sanitizer.h" ] &&
   [ ! -f .tools/sanitizer/nvidia/cu13/include/sanitizer.h ]; then
  echo "setup.sh: installing the Compute Sanitizer API (NVIDIA's wheel) into .tools/sanitizer"
  PIP_ROOT_USER_ACTION=ignore python3 -m pip install --quiet --disable-pip-version-check \
      --no-deps --target .tools/sanitizer "nvidia-cuda-sanitizer-api==13.0.85" \
    || echo "setup.sh: could not install the Compute Sanitizer API: cudalab run --trace will" \
            "be unavailable" >&2
fi
cmake_version=$(cmake --version | head -1 | awk '{print $3}')
if [ "$(printf '%s\n3.25\n' "$cmake_version" | sort -V | head -1)" != "3.25" ]; then
  echo "setup.sh: CMake $cmake_version is too old: cudalab needs 3.25 or newer" >&2
  exit 1
fi

jobs=$(nproc 2>/dev/null || echo 2)
if [ -n "${CUDAARCHS:-}" ]; then
  cmake --preset "$preset" "-DCMAKE_CUDA_ARCHITECTURES=$CUDAARCHS" >/dev/null
else
  cmake --preset "$preset" >/dev/null
fi
cmake --build --preset "$preset" -j "$jobs"
echo "setup.sh: built build/$preset (tool: build/$preset/tools/cudalab/cudalab)"
