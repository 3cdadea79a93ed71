#!/bin/sh
# verify --run's verdicts from Nsight Compute's per-line counters and from
# sanitizer runs that did not reach the command's end, up to the GPU:
# kcheck_ncu.py turns the source pages an H200 printed for the probes in
# tests/verify/run/ (ncu 2025.3.1, tests/verify/recorded/ncu/) into
# ncu-lines.json, and kcheck judges KC101 and KC103 at their lines: the
# strided read 8.0x the sectors of a coalesced one, the 32-way store 32x
# the wavefronts, the Triton load 8.0x; code without line information and a
# kernel ncu never saw are inconclusive and say why. A racecheck run killed
# for memory says nothing, and the verdict says so.
#     check_run_ncu.sh KCHECK SOURCE_DIR WORKDIR
set -u
kcheck=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$src" || exit 1
fail=0
expect() { # OUTPUT LINE-PREFIX TEXT
    if ! printf '%s\n' "$1" | grep -A12 -F "$2" | grep -m1 -F "= verify:" | grep -qF "$3"; then
        echo "FAIL: $2: expected a verdict with '$3'"; printf '%s\n' "$1" | grep -A12 -F "$2" | grep -m1 -F "= verify:"; fail=1
    fi
}
results() { # NAME CSV: a results directory with the command's status and the counters
    mkdir -p "$work/$1" && echo 0 >"$work/$1/command.status" && echo 0 >"$work/$1/ncu.status"
    python3 src/verify/kcheck_ncu.py --csv "$2" "$work/$1/ncu-lines.json" || { echo "FAIL: kcheck_ncu.py $2"; fail=1; }
}
v() { "$kcheck" verify --no-config --no-cache --color=never "$@" 2>&1; }
results cu tests/verify/recorded/ncu/cu-src-cuda_sass.csv
out=$(v --run ./strided --results "$work/cu" tests/verify/run/strided.cu)
expect "$out" "strided.cu:7:16: warning" "confirmed: Nsight Compute on the command (1 launch of \`col_read\`): the global accesses at line 7 took 4194304 L2 sectors where a coalesced access of the same bytes needs 524288 (8.0x)"
expect "$out" "strided.cu:13:10: warning" "confirmed: Nsight Compute on the command (1 launch of \`bank\`): the shared-memory accesses at line 13 took 1024 wavefronts where a conflict-free access needs 32 (32.0x), 32-way bank conflicts"
results tr tests/verify/recorded/ncu/tr-src-cuda_sass.csv
out=$(v --run "python3 strided.py" --results "$work/tr" tests/verify/run/strided.py)
expect "$out" "strided.py:9:24: warning" "confirmed: Nsight Compute on the command (1 launch of \`col_sum\`): the global accesses at line 9 took"
# the SASS-only page: no line information
results sass tests/verify/recorded/ncu/cu-src-sass.csv
out=$(v --run ./strided --results "$work/sass" tests/verify/run/strided.cu)
expect "$out" "strided.cu:7:16: warning" "inconclusive: Nsight Compute profiled \`col_read\`, but its code has no line information: build it with \`-lineinfo\`"
# the Triton counters say nothing of the CUDA kernels: not executed
out=$(v --run ./strided --results "$work/tr" tests/verify/run/strided.cu)
expect "$out" "strided.cu:7:16: warning" "inconclusive: not executed by the command: Nsight Compute, profiling the first launch of each flagged kernel, saw none of \`col_read\`"
# ncu skipped
mkdir -p "$work/skip" && echo 0 >"$work/skip/command.status" && echo 'KCHECK_RUN_NCU=0' >"$work/skip/ncu.skipped"
out=$(v --run ./strided --results "$work/skip" tests/verify/run/strided.cu)
expect "$out" "strided.cu:13:10: warning" "inconclusive: Nsight Compute did not profile the command (KCHECK_RUN_NCU=0)"
# a barrier after a return, racecheck killed (137) and synccheck clean: the
# verdict rests on synccheck alone and says racecheck did not finish
f=tests/fixtures/KC401_barrier-divergence
bad=$(ls $f/bad_*.cu | head -1)
mkdir -p "$work/cut" && echo 0 >"$work/cut/command.status"
printf '========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n' >"$work/cut/racecheck.log"
echo 137 >"$work/cut/racecheck.status"
printf '========= ERROR SUMMARY: 0 errors\n' >"$work/cut/synccheck.log"
echo 0 >"$work/cut/synccheck.status"
out=$(v --run ./a.out --results "$work/cut" "$bad")
line=$(printf '%s\n' "$out" | grep -m1 -F "= verify: not-reproduced: compute-sanitizer synccheck reported nothing")
case "$line" in
*"racecheck: the command under it did not run to its end (exit status 137)"*) ;;
*) echo "FAIL: killed racecheck: $line"; printf '%s\n' "$out" | grep -F "= verify:" | head -3; fail=1 ;;
esac
[ $fail = 0 ] && echo "ok: verify --run verdicts from Nsight Compute's counters and cut sanitizer runs"
exit $fail
