#!/bin/sh
# The pre-commit hook of .pre-commit-hooks.yaml, run by pre-commit itself
# (`pre-commit try-repo`) on a scratch repository: it checks the .py and
# .cuh files it is given and nothing else, and fails on findings; files
# whose names look like options are checked as files, never obeyed.
#   check_hook.sh KCHECK SOURCE_DIR WORK_DIR
set -eu
kcheck=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work/repo"
cd "$work/repo"
git init -q .
cp "$src/tests/fixtures/KC202_static-range-runtime-bound/bad_runtime_arg.py" k.py
cp "$src/tests/fixtures/KC201_large-static-unroll/bad_pragma_unroll.cu" k.cuh
printf 'not a kernel\n' > notes.txt
# Names that kcheck would otherwise read as options: one would overwrite
# setup.py with a baseline, the others stop every commit with exit 2.
cp k.py ./--write-baseline=setup.py
printf 'print("setup")\n' > setup.py
cp k.cuh ./-o.cuh
# A kernel and the file that launches it: its warning needs the launch
# (rows of a flattened tensor), so both must reach one kcheck process;
# more files than cores make pre-commit split a run that is not serial.
f=$src/tests/fixtures/KC304_int32-offset-overflow
cp "$f/bad_row_kernel_launched_elsewhere.py" "$f/ok_launcher_of_row_kernel.py" .
i=0
while [ $i -lt 40 ]; do printf 'x = %d\n' $i > "pad_$i.py"; i=$((i + 1)); done
git add -- .
status=0
PATH="$(dirname "$kcheck"):$PATH" PRE_COMMIT_HOME="$work/cache" \
    pre-commit try-repo "$src" kcheck-system --all-files > "$work/out.txt" 2>&1 || status=$?
cat "$work/out.txt"
[ "$status" -eq 1 ] || { echo "expected the hook to fail (status $status)" >&2; exit 1; }
grep -q 'k.py:8:37: error:' "$work/out.txt"
grep -q 'k.cuh:7:1: warning:' "$work/out.txt"
if grep -q 'notes.txt' "$work/out.txt"; then echo "the hook was given notes.txt" >&2; exit 1; fi
grep -q -- '--write-baseline=setup.py:8:37: error:' "$work/out.txt"
grep -q -- '-o.cuh:7:1: warning:' "$work/out.txt"
[ "$(cat setup.py)" = 'print("setup")' ] || { echo "setup.py was overwritten" >&2; exit 1; }
grep -q 'bad_row_kernel_launched_elsewhere.py:13:[0-9]*: warning: `row \* stride` is int32' "$work/out.txt" ||
    { echo "the kernel and its launching file were checked apart" >&2; exit 1; }
echo "the pre-commit hook checks the files it is given"
