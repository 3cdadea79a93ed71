#!/bin/sh
# The CUDA fix-its compile: every pinned fixed fixture (tests/fixtures/*/
# bad_*.cu.fixed, the text of `kcheck --fix`, checked by unit.cli) is built
# with nvcc where its original builds. Needs nvcc (CUDA_PATH, PATH or
# /usr/local/cuda): without one the test is skipped (exit 77) and says so;
# the last run on a GPU machine is recorded in docs/measurements/.
#   check_fixed_compile.sh SOURCE_DIR [WORK_DIR]
set -u
src=$1 work=${2:-${TMPDIR:-/tmp}/kcheck-fixed-compile.$$}
nvcc=
for c in "${CUDA_PATH:-}/bin/nvcc" "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc; do
    [ -n "$c" ] && [ -x "$c" ] && { nvcc=$c; break; }
done
if [ -z "$nvcc" ]; then
    echo "skipped: nvcc not found (the fixed CUDA fixtures are compiled on a GPU machine: docs/measurements/fixed-fixtures-nvcc.txt)"
    exit 77
fi
mkdir -p "$work" || exit 2
echo "$("$nvcc" --version | tail -1)"
failed=0 n=0
for fixed in "$src"/tests/fixtures/*/bad_*.cu.fixed; do
    [ -f "$fixed" ] || continue
    orig=${fixed%.fixed}
    name=$(basename "$(dirname "$orig")")/$(basename "$orig")
    n=$((n + 1))
    # -cubin: nvcc's front end parses the whole file (host code too) and
    # ptxas assembles the device code (shared memory and register limits),
    # without the host compiler (a third of the time of -c). The original
    # is compiled only when its fixed text fails, to tell a fix-it's error
    # from a fixture that never built.
    if "$nvcc" -std=c++17 -cubin -x cu -o "$work/fixed.cubin" "$fixed" >"$work/fixed.log" 2>&1; then
        echo "$name: fixed compiles"
    elif ! "$nvcc" -std=c++17 -cubin -x cu -o "$work/orig.cubin" "$orig" >"$work/orig.log" 2>&1; then
        echo "$name: the original does not compile with nvcc either (not a fix-it's doing)"
    else
        echo "FAILED: $name compiles, its fixed text does not:"
        head -8 "$work/fixed.log"
        failed=1
    fi
done
rm -rf "$work"
[ "$n" -gt 0 ] || { echo "FAILED: no pinned fixed CUDA fixtures"; exit 1; }
exit $failed
