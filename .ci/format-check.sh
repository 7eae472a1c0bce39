#!/usr/bin/env bash
# Fails when a tracked C++ or CUDA source is not laid out as .clang-format says. The layout is
# checked with clang-format 14 (Debian bookworm's): other versions break lines differently, so
# a different version is an error here rather than a stream of false differences.
set -euo pipefail
cd "$(dirname "$0")/.."
formatter=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$formatter" ]; then
  echo "format-check.sh: installing clang-format"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo -n"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends clang-format
  formatter=$(command -v clang-format)
fi
major=$("$formatter" --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
if [ "$major" != 14 ]; then
  echo "format-check.sh: $formatter is version $major; the tree is laid out with clang-format 14" \
       "(apt-get install clang-format-14)" >&2
  exit 1
fi
if ! git ls-files -z '*.cpp' '*.hpp' '*.cu' '*.cuh' | xargs -0 "$formatter" --dry-run --Werror; then
  echo "format-check.sh: the files above differ from .clang-format: run" \
       "git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' | xargs clang-format -i" >&2
  exit 1
fi
echo "format-check.sh: every C++ and CUDA source follows .clang-format"
