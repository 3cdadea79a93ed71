#!/bin/sh
# Builds bench/premise/kc201_full_unroll_body.cu once per unroll mode (full,
# 32, 4, 1), with each build's nvcc time and, per kernel, its SASS
# instruction count and registers; then runs it. Needs nvcc, cuobjdump and
# a GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/kc201u}
mkdir -p "$out"
nvcc --version | tail -1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for m in 0 32 4 1; do
    t0=$(date +%s.%N)
    nvcc -std=c++17 -O3 -arch=native -DMODE=$m -o "$out/u$m" "$here/kc201_full_unroll_body.cu" || exit 2
    t1=$(date +%s.%N)
    echo "== mode $m: nvcc $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}') s"
    cuobjdump -sass "$out/u$m" | awk '/Function :/ {f=$3} /^ +\/\*[0-9a-f]+\*\// {c[f]++} END {for (k in c) printf "sass %s %d\n", k, c[k]}' | sort
    cuobjdump -res-usage "$out/u$m" 2>/dev/null | grep -o "Function [^:]*:\|REG:[0-9]*" | paste - - | sort
    "$out/u$m" || echo "run: exit $?"
done
