#!/bin/sh
# Runs the KC102 barrier-reload premise on the GPU machine (device tool):
# the LDG count per kernel in SASS (the reload stays in the loop) and the
# time of each reload kernel against its hoisted twin.
set -e
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
nvcc --version | tail -2
nvcc -O3 -arch=sm_90 -o /tmp/kc102b kc102_barrier_reload.cu
cuobjdump -sass /tmp/kc102b | awk '/Function :/{f=$3} /LDG/{n[f]++} END{for (k in n) print "LDG in SASS:", k, n[k]}' | sort
/tmp/kc102b
