#!/usr/bin/env sh
# scripts/cuobjdump.sh ARGS...: NVIDIA's cuobjdump wherever this machine has it (on PATH, in
# /usr/local/cuda/bin, or the copy scripts/setup.sh installs in .tools/cuda where the toolkit
# lacks it), so that every lesson gives the same command: scripts/cuobjdump.sh -sass <library>.
root=$(cd "$(dirname "$0")/.." && pwd)
for candidate in "$(command -v cuobjdump 2>/dev/null)" /usr/local/cuda/bin/cuobjdump \
                 "$root/.tools/cuda/nvidia/cu13/bin/cuobjdump"; do
  [ -n "$candidate" ] && [ -x "$candidate" ] && exec "$candidate" "$@"
done
echo "cuobjdump.sh: no cuobjdump here: install the CUDA Toolkit, or run scripts/setup.sh" >&2
exit 2
