#!/usr/bin/env bash
# Builds and runs bench/cuda_unroll_bench.cu once per unroll factor, with
# each build's nvcc wall time and the SASS instruction count of each kernel:
#   bench/cuda_unroll_bench.sh [OUTDIR]      (needs nvcc, cuobjdump and a GPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/cuda_unroll_bench}
mkdir -p "$out"
nvcc --version | tail -2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for u in 0 1 4 8 32 64 128; do
    t0=$(date +%s.%N)
    nvcc -std=c++17 -O3 -arch=native -DUNROLL=$u -o "$out/cub_$u" "$here/cuda_unroll_bench.cu"
    t1=$(date +%s.%N)
    sass=$(cuobjdump -sass "$out/cub_$u" | awk '/Function :/ {f=$3} /^ +\/\*[0-9a-f]+\*\// {c[f]++} END {for (k in c) printf "%s=%d ", k, c[k]}')
    printf '{"unroll": %d, "compile_s": %.2f, "sass": "%s"}\n' "$u" "$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" "$sass"
    "$out/cub_$u"
done
