#!/bin/sh
# The CUDA header cache (src/analyzer/cuda_pch.h) and toolkit mode, through
# the CLI, on the examples and every fixture:
#   - shim mode (the default): the first run writes a precompiled header
#     into the cache directory, the second reuses it (no new file, the same
#     output), --no-header-cache writes none and gives the same output, a
#     damaged header is rebuilt without changing the output, and three runs
#     at once over an empty cache agree and leave one header per key and no
#     temporary file;
#   - toolkit mode, where a CUDA toolkit is installed: the same diagnostics
#     as shim mode, cold and warm, and with --no-header-cache.
#   check_header_cache.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1 src=$2 work=$3
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

# ---- shim mode ----
run "$work/cold.txt" "$work/c1"
n=$(headers "$work/c1" | wc -l)
[ "$n" -ge 1 ] || fail "the first run wrote no precompiled header"
ls -l --time-style=+%s.%N "$work/c1/headers-1" >"$work/before.txt"
run "$work/warm.txt" "$work/c1"
cmp -s "$work/cold.txt" "$work/warm.txt" || fail "the warm run's output differs"
ls -l --time-style=+%s.%N "$work/c1/headers-1" >"$work/after.txt"
diff "$work/before.txt" "$work/after.txt" || fail "the warm run rebuilt a header"

run "$work/off.txt" "$work/c2" --no-header-cache
diff -u "$work/off.txt" "$work/cold.txt" || fail "the header cache changes the output"
[ ! -e "$work/c2/headers-1" ] || fail "--no-header-cache wrote a header cache"

for h in $(headers "$work/c1"); do
    head -c 100000 /dev/urandom >"$work/c1/headers-1/$h"
done
run "$work/damaged.txt" "$work/c1"
cmp -s "$work/cold.txt" "$work/damaged.txt" || fail "a damaged header changed the output"
# the run that found it damaged removed it (or another thread rebuilt it);
# by the next run it is a precompiled header again
run "$work/after-damage.txt" "$work/c1"
cmp -s "$work/cold.txt" "$work/after-damage.txt" || fail "the run after the damage differs"
[ "$(headers "$work/c1" | wc -l)" = "$n" ] || fail "the damaged header was not rebuilt"
for h in $(headers "$work/c1"); do
    [ "$(head -c 4 "$work/c1/headers-1/$h")" = CPCH ] || fail "the damaged header $h was not rebuilt"
done

for i in 1 2 3; do
    run "$work/par$i.txt" "$work/c3" &
done
wait
for i in 1 2 3; do
    cmp -s "$work/cold.txt" "$work/par$i.txt" || fail "concurrent run $i differs"
done
[ "$(headers "$work/c3" | wc -l)" = "$n" ] || fail "concurrent runs wrote $(headers "$work/c3" | wc -l) headers, expected $n"
! ls "$work/c3/headers-1" | grep -q '\.tmp$' || fail "a temporary file was left behind"
echo "shim mode: $n header(s) built once, reused, rebuilt when damaged; the same output without them"

# ---- toolkit mode ----
cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$cuda/include/cuda_runtime.h" ]; then
    echo "toolkit mode: skipped, no CUDA toolkit at $cuda (set CUDA_PATH)"
    exit 0
fi
run "$work/tk-cold.txt" "$work/c4" --cuda-path "$cuda"
diff -u "$work/cold.txt" "$work/tk-cold.txt" || fail "toolkit mode's diagnostics differ from shim mode's"
[ "$(headers "$work/c4" | wc -l)" -ge 1 ] || fail "the first toolkit run wrote no precompiled header"
run "$work/tk-warm.txt" "$work/c4" --cuda-path "$cuda"
cmp -s "$work/tk-cold.txt" "$work/tk-warm.txt" || fail "the warm toolkit run's output differs"
run "$work/tk-off.txt" "$work/c5" --cuda-path "$cuda" --no-header-cache
cmp -s "$work/tk-cold.txt" "$work/tk-off.txt" || fail "--no-header-cache changes toolkit mode's output"
echo "toolkit mode: the same diagnostics as shim mode, with and without the header cache"
