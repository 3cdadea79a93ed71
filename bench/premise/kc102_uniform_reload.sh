#!/bin/sh
# Runs the KC102 reload premise on the GPU machine (device tool) and shows
# that nvcc keeps the loads in the loop (LDG count per kernel in SASS).
set -e
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2
nvcc -O3 -arch=sm_90 -o /tmp/kc102 kc102_uniform_reload.cu
cuobjdump -sass /tmp/kc102 | awk '/Function :/{f=$3} /LDG/{n[f]++} END{for (k in n) print "LDG in SASS:", k, n[k]}' | sort
/tmp/kc102
