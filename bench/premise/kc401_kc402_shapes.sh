#!/bin/sh
# Runs bench/premise/kc401_kc402_shapes.cu under compute-sanitizer: racecheck
# for the KC402 shapes, synccheck for the KC401 ones; prints each kernel's
# verdict line and the sanitizer's summary. Needs nvcc and a GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/kc4}
nvcc -O3 -arch=sm_90 -lineinfo -o "$out" "$here/kc401_kc402_shapes.cu" || exit 2
nvcc --version | tail -1
for k in ok_halo_fill bad_halo_overlap ok_mirrored_fold bad_fold_meet; do
    echo "== racecheck $k"
    compute-sanitizer --tool racecheck --racecheck-report hazard "$out" "$k" 2>&1 | grep -E "^$k:|ERROR SUMMARY|RACECHECK SUMMARY" | head -3
done
for k in ok_grid_rounded_down bad_grid_rounded_up ok_tid_below_size bad_barrier_in_branch; do
    echo "== synccheck $k"
    compute-sanitizer --tool synccheck "$out" "$k" 2>&1 | grep -E "^$k:|ERROR SUMMARY|Barrier error" | head -3
done
