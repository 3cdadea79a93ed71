#!/bin/sh
# Runs bench/premise/kc401_kc402_loop_fold.cu's three kernels: the result
# over 200 launches, then racecheck and synccheck on one launch each.
# Needs nvcc, compute-sanitizer and a GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/kc4f}
nvcc -O3 -arch=sm_90 -lineinfo -o "$out" "$here/kc401_kc402_loop_fold.cu" || exit 2
nvcc --version | tail -1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for k in fold_exit fold_meet fold_rejoin; do
    timeout 120 "$out" "$k" || echo "$k: exit $?"
    echo "== racecheck $k"
    timeout 300 compute-sanitizer --tool racecheck "$out" "$k" once 2>&1 | grep -E "ERROR SUMMARY|hazard|Race reported" | head -5
    echo "== synccheck $k"
    timeout 300 compute-sanitizer --tool synccheck "$out" "$k" once 2>&1 | grep -E "ERROR SUMMARY|Barrier error|divergent" | head -5
done
