#!/bin/sh
# Runs bench/premise/kc601_sticky_sync.cu's four cases, one process each,
# and prints what each runtime call returned. Needs nvcc and a GPU.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/kc601}
nvcc -O2 -arch=sm_90 -o "$out" "$here/kc601_sticky_sync.cu" || exit 2
nvcc --version | tail -1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for c in fault_then_copy trap_then_copy bad_config_then_sync bad_arg_then_copy fault_then_device_calls \
    device_calls_clean; do
    timeout 60 "$out" "$c"
done
