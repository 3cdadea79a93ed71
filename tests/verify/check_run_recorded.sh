#!/bin/sh
# The verdicts of `kcheck verify --run` from what the recorder and
# compute-sanitizer wrote on an H200 (tests/verify/recorded/run/, from
# `sh BUNDLE/run-command.sh` of an --export bundle; docs/verify-results.md):
# the int32 offset below 2^31 is inconclusive, past it confirmed as a write
# out of bounds; the unmasked load confirmed by memcheck at its line; the
# full unroll confirmed by its compile time; kernels the command did not
# launch say so; KC306's padded softmax confirmed against its fix-it.
#     check_run_recorded.sh KCHECK SOURCE_DIR
set -u
kcheck=$1 src=$2
cd "$src" || exit 1
fail=0
verdicts() { # CMD RESULTS FILE: kcheck's verdicts on a recorded run of CMD
    "$kcheck" verify --no-config --no-cache --severity note --color=never --run "$1" --results "$2" "$3" 2>&1
}
expect() { # OUTPUT LINE-PREFIX TEXT
    if ! printf '%s\n' "$1" | grep -A12 -F "$2" | grep -m1 -F "= verify:" | grep -qF "$3"; then
        echo "FAIL: $2: expected a verdict with '$3'"; fail=1
    fi
}
small=$(verdicts "python3 examples/verify/run/run_ops.py" tests/verify/recorded/run/small examples/verify/run/ops.py)
expect "$small" "ops.py:14:25: note" "inconclusive: the command's launches stay below 2^31 elements"
expect "$small" "ops.py:23:17: warning" "confirmed: compute-sanitizer memcheck, on the command: \"Invalid __global__ read of size 16 bytes\" at ops.py:23 in add_kernel"
expect "$small" "ops.py:31:18: warning" "confirmed: on the command's own launch (grid (64,)"
big=$(verdicts "python3 examples/verify/run/run_ops.py big" tests/verify/recorded/run/big examples/verify/run/ops.py)
expect "$big" "ops.py:15:22: note" "confirmed: the command's own launch (grid (40000,), \`x_ptr\` [40000, 65536] bfloat16"
expect "$big" "ops.py:23:17: warning" "inconclusive: not executed by the command: no launch of \`add_kernel\`"
# KC306 (lanes.py): the softmax padded with 0.0 confirmed by its fix-it on the
# command's launch; the matmul's loads without other= not reproduced (the
# NVIDIA backend loads 0 there, as the notes say).
lanes=$(verdicts "python3 run_lanes.py" tests/verify/recorded/run/lanes examples/verify/run/lanes.py)
expect "$lanes" "lanes.py:40:72: warning" "confirmed: on the command's own launch (grid (64,)"
expect "$lanes" "lanes.py:20:13: note" "not-reproduced: outputs identical with and without the fix-it"
# KC307 (gather.py): the target logit read at `label = -100` confirmed by
# memcheck at its line (the output is right: only the sanitizer shows it);
# memcheck.log is cut to its first two reports and the summary.
gather=$(verdicts "python3 run_gather.py" tests/verify/recorded/run/gather examples/verify/run/gather.py)
expect "$gather" "gather.py:14:19: warning" "confirmed: compute-sanitizer memcheck, on the command: \"Invalid __global__ read of size 4 bytes\" at gather.py:14"
# KC304 past 2^31 from a launch far below it: kcheck_replay.py scaled the
# command's own launch (ops.py's row_scale at 300 x 1000; the three row
# kernels of the KC304 fixture at test sizes) past 2^31 elements; the
# kernels with the fix-its wrote every copy of every row alike, the kernels
# as written hit an illegal address (2026-12-04, docs/verify-results.md).
rep=$(verdicts "python3 examples/verify/run/run_ops.py" tests/verify/recorded/run/small_replay examples/verify/run/ops.py)
expect "$rep" "ops.py:14:25: note" "confirmed: the command's launches stay below 2^31 elements (grid (300,)"
expect "$rep" "ops.py:14:25: note" "kcheck replayed its launch with grid (300, 1, 1) at 2281800 rows (the recorded 300, 7606 copies of each)"
expect "$rep" "ops.py:14:25: note" "the kernel with the fix-it ran and wrote every copy of every row alike; the kernel as written failed: AcceleratorError: CUDA error: an illegal memory access was encountered"
fx=$(verdicts "python3 tests/verify/run_kc304_fixture.py" tests/verify/recorded/run/kc304_fixture tests/fixtures/KC304_int32-offset-overflow/bad_first_dim_rows.py)
expect "$fx" "bad_first_dim_rows.py:21:25: note" "confirmed: the command's launches stay below 2^31 elements (grid (64,)"
expect "$fx" "bad_first_dim_rows.py:40:12: note" "at 5942016 rows (the recorded 256, 23211 copies of each, 128 to a program), grid (46422, 3, 1)"
expect "$fx" "bad_first_dim_rows.py:40:12: note" "the kernel as written failed: AcceleratorError: CUDA error: an illegal memory access"
expect "$fx" "bad_first_dim_rows.py:60:17: note" "(the recorded 100, 118839 copies of each, 64 to a program), grid (185686, 2, 1)"
expect "$fx" "bad_first_dim_rows.py:60:17: note" "confirmed:"
[ $fail = 0 ] && echo "ok: verify --run verdicts from the recorded H200 run"
exit $fail
