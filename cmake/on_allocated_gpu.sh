#!/bin/sh
# on_allocated_gpu.sh <command...>: runs a GPU test on the card CTest gave it.
# Under `ctest --resource-spec-file` (scripts/test.sh, scripts/gpu-suite.sh) a test that asks for
# "gpus:1" gets CTEST_RESOURCE_GROUP_0_GPUS="id:<n>,slots:1", where <n> is the card's position
# among those the spec was written for (scripts/cudalab_scripts/resources.py): the nth entry of
# CUDA_VISIBLE_DEVICES where it is set, else card n. The CUDA runtime then sees that card alone.
# Without a spec the command runs as it is.
set -eu
case ${CTEST_RESOURCE_GROUP_0_GPUS:-} in
  id:*)
    n=${CTEST_RESOURCE_GROUP_0_GPUS#id:}
    n=${n%%,*}
    if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
      CUDA_VISIBLE_DEVICES=$(printf '%s\n' "$CUDA_VISIBLE_DEVICES" | cut -d, -f$((n + 1)))
    else
      CUDA_VISIBLE_DEVICES=$n
    fi
    export CUDA_VISIBLE_DEVICES
    ;;
esac
exec "$@"
