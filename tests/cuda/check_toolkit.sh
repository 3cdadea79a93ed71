#!/bin/sh
# Toolkit mode and its header cache (src/analyzer/cuda_pch.h), through the
# CLI, on the examples and every fixture:
#   - the diagnostics are the same as in shim mode (the default);
#   - the first run writes a precompiled header into the cache directory,
#     the second reuses it (no new file, the same output);
#   - --no-header-cache writes none and gives the same output;
#   - a damaged header is rebuilt, and the output does not change;
#   - three runs at once over an empty cache agree and leave one header per
#     key and no temporary file.
# Skipped (77) where no CUDA toolkit is installed.
#   check_toolkit.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1 src=$2 work=$3
cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$cuda/include/cuda_runtime.h" ]; then
    echo "skipped: no CUDA toolkit at $cuda (set CUDA_PATH)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 2
inputs="examples tests/fixtures"
fail() {
    echo "FAILED: $*"
    exit 1
}
run() { # run OUT CACHE ARGS...: kcheck over the inputs; exit status 1 (findings) expected
    out=$1 cache=$2
    shift 2
    "$kcheck" --no-cache --cache-dir "$cache" --no-source --color=never -j 2 "$@" $inputs >"$out" 2>&1
    st=$?
    [ "$st" = 1 ] || { tail -5 "$out"; fail "kcheck $* exited $st, expected 1"; }
}
headers() { ls "$1/headers-1" 2>/dev/null | grep '\.pch$' | sort; }

run "$work/shim.txt" "$work/c0"
run "$work/cold.txt" "$work/c1" --cuda-path "$cuda"
diff -u "$work/shim.txt" "$work/cold.txt" || fail "toolkit mode's diagnostics differ from shim mode's"
n=$(headers "$work/c1" | wc -l)
[ "$n" -ge 1 ] || fail "the first toolkit run wrote no precompiled header"
ls -l --time-style=+%s.%N "$work/c1/headers-1" >"$work/before.txt"

run "$work/warm.txt" "$work/c1" --cuda-path "$cuda"
cmp -s "$work/cold.txt" "$work/warm.txt" || fail "the warm run's output differs"
ls -l --time-style=+%s.%N "$work/c1/headers-1" >"$work/after.txt"
diff "$work/before.txt" "$work/after.txt" || fail "the warm run rebuilt a header"

run "$work/off.txt" "$work/c2" --cuda-path "$cuda" --no-header-cache
cmp -s "$work/cold.txt" "$work/off.txt" || fail "--no-header-cache changes the output"
[ ! -e "$work/c2/headers-1" ] || fail "--no-header-cache wrote a header cache"

for h in $(headers "$work/c1"); do
    head -c 100000 /dev/urandom >"$work/c1/headers-1/$h"
done
run "$work/damaged.txt" "$work/c1" --cuda-path "$cuda"
cmp -s "$work/cold.txt" "$work/damaged.txt" || fail "a damaged header changed the output"
for h in $(headers "$work/c1"); do
    [ "$(head -c 4 "$work/c1/headers-1/$h")" = CPCH ] || fail "the damaged header $h was not rebuilt"
done

for i in 1 2 3; do
    run "$work/par$i.txt" "$work/c3" --cuda-path "$cuda" &
done
wait
for i in 1 2 3; do
    cmp -s "$work/cold.txt" "$work/par$i.txt" || fail "concurrent run $i differs"
done
[ "$(headers "$work/c3" | wc -l)" = "$n" ] || fail "concurrent runs wrote $(headers "$work/c3" | wc -l) headers, expected $n"
! ls "$work/c3/headers-1" | grep -q '\.tmp$' || fail "a temporary file was left behind"
echo "toolkit mode: same diagnostics as shim mode; $n header(s) built once, reused, rebuilt when damaged"
