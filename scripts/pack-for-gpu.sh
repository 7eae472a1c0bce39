#!/usr/bin/env bash
# scripts/pack-for-gpu.sh [build-dir ...]: packs builds made here for a GPU machine that cannot
# build them, within a small transfer: every file of each build but objects, static libraries
# and CMake's scratch files, binaries stripped, plus the tools the build links to at run time
# (.tools: the Compute Sanitizer API the tracer loads, cuobjdump and nvdisasm; .nsys-libs when
# fetched), into .gpu/pack.tar.xz (35 MB for build/release, 38 with build/debug). On the GPU
# machine, from the repository root at the same path: `tar -xJf .gpu/pack.tar.xz`, then
# scripts/gpu-suite.sh as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- build/release
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for build in "$@"; do
  [ -f "$build/CMakeCache.txt" ] || { echo "pack-for-gpu.sh: $build is not a build folder" >&2; exit 2; }
  (find "$build" -type f ! -name '*.o' ! -name '*.a' ! -path '*/CMakeFiles/*' -print0 |
     tar --null -cf - -T -) | tar -xf - -C "$stage"
done
[ -d .tools ] && find .tools -path '*/bin/*' -prune -o -type f -print0 | tar --null -cf - -T - |
  tar -xf - -C "$stage"
[ -d .tools/cuda ] && tar -cf - .tools/cuda | tar -xf - -C "$stage"
# Nsight Systems' report import needs libdw and libelf, which a bare GPU host may lack
# (scripts/fetch-nsys-libs.sh): packed when fetched, so the nsys tests run in every suite call.
nsys_libs="without .nsys-libs (scripts/fetch-nsys-libs.sh: the two nsys tests need it)"
if [ -d .nsys-libs ]; then
  tar -cf - .nsys-libs | tar -xf - -C "$stage"
  nsys_libs="with .nsys-libs"
fi
# Symbols are not needed to run; the kernels' code and line tables live in their own sections.
find "$stage" -type f -executable ! -name '*.sh' ! -name '*.py' -exec strip --strip-unneeded {} + 2>/dev/null || true
mkdir -p .gpu
tar -C "$stage" -cf - . | xz -T0 -6 >.gpu/pack.tar.xz
echo "pack-for-gpu.sh: .gpu/pack.tar.xz ($(du -h .gpu/pack.tar.xz | cut -f1), $nsys_libs); carry .gpu" \
     "and run 'tar -xJf .gpu/pack.tar.xz' in the repository root there"
