#!/bin/sh
# A quoted include that names a path from a project's root
# (`"src/compat/shfl.cuh"`) is looked up under the including file's
# ancestors, but not above the repository's root (a directory with .git):
# a header of the same path there belongs to another project.
#   check_project_roots.sh KCHECK WORK_DIR
set -u
kcheck=$1 work=$2
rm -rf "$work"
mkdir -p "$work/outer/src/compat" "$work/outer/proj/kernels"
cat > "$work/outer/src/compat/shfl.cuh" <<'H'
#pragma once
#define __shfl_down(x, y) __shfl_down_sync(0xffffffffu, x, y)
H
cat > "$work/outer/proj/kernels/k.cu" <<'K'
#include <cuda_runtime.h>
#include "src/compat/shfl.cuh"
__global__ void row_sum(const float *x, float *out)
{
    float v = x[blockIdx.x * 32 + threadIdx.x];
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_down(v, o);
    if (threadIdx.x == 0)
        out[blockIdx.x] = v;
}
K
out=$("$kcheck" --no-cache --no-config "$work/outer/proj/kernels/k.cu" 2>&1)
case $out in
*"no findings"*) ;;
*) echo "FAILED: the header two directories up was not found:"; echo "$out"; exit 1 ;;
esac
mkdir "$work/outer/proj/.git"
out=$("$kcheck" --no-cache --no-config "$work/outer/proj/kernels/k.cu" 2>&1)
case $out in
*"KC403"*) ;;
*) echo "FAILED: a header above the repository's root (.git) was used:"; echo "$out"; exit 1 ;;
esac
echo "ok: project roots are looked up to the repository's root and no further"
