#!/bin/sh
# The CUDA header cache (src/analyzer/cuda/cuda_pch.h) and toolkit mode, through
# the CLI, on the examples and every fixture:
#   - shim mode (the default): over every input, the first run writes a
#     precompiled header into the cache directory and gives the output of
#     --no-header-cache, which writes none; on a few inputs, the second
#     run reuses it (no new file, the same output), a damaged header is
#     rebuilt without changing the output, and three runs at once over an
#     empty cache agree and leave one header per key and no temporary file;
#   - a file's own preamble (cuda_pch.h): built on its second request,
#     reused, refused and rebuilt when a header it includes changes;
#   - under `ulimit -f` too small for a header, the run gives the same
#     output without the cache (libclang would abort writing one); where
#     no result can be written, the findings come with a warning;
#   - toolkit mode, where a CUDA toolkit is installed: the same diagnostics
#     as shim mode, cold on every input, then warm and with
#     --no-header-cache on a few.
#   check_header_cache.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
cd "$src" || exit 2
# KCHECK_HEADER_CACHE_INPUTS: fewer inputs for the sanitizer pass of
# build.sh test, where every run of kcheck takes twice as long: the cache's
# code paths are the same for any set of CUDA files, and the first pass
# compares the outputs on every fixture. (Each run over every input took
# 8 s of CI's 15 minutes; ten of them did, before only the comparisons
# that need every input ran on every input.)
inputs=${KCHECK_HEADER_CACHE_INPUTS:-examples tests/fixtures}
fail() {
    echo "FAILED: $*"
    exit 1
}
# Toolkit mode reads the real CUDA headers: over every fixture, a run
# without the header cache took 150 s of CI's 15 minutes. The runs after
# toolkit mode's first compare on a few inputs (the cache's code paths do
# not depend on which CUDA files they serve).
few=${KCHECK_HEADER_CACHE_FEW:-examples/cuda tests/fixtures/KC101_uncoalesced-access}
run_on() { # run_on INPUTS OUT CACHE ARGS...: kcheck over INPUTS; exit status 1 (findings) expected
    files=$1 out=$2 cache=$3
    shift 3
    "$kcheck" --no-cache --cache-dir "$cache" --no-source --color=never -j 2 "$@" $files >"$out" 2>&1
    st=$?
    [ "$st" = 1 ] || { tail -5 "$out"; fail "kcheck $* exited $st, expected 1"; }
}
run() { # run OUT CACHE ARGS...: kcheck over the inputs
    run_on "$inputs" "$@"
}
# the headers in front of every file (a file's own preamble: pre-*)
headers() { ls "$1/headers-1" 2>/dev/null | grep '^cuda-.*\.pch$' | sort; }
listing() { ls -l --time-style=+%s.%N "$1/headers-1" | grep ' cuda-'; }

# ---- shim mode ----
# Over every input: the output with the cache (the first run builds the
# header, the files after it use it) equals the output without it. The
# cache's own behaviour (reuse, damage, concurrent builders) is the same
# for any set of CUDA files and is checked on a few, with a cache of
# their own.
run "$work/cold.txt" "$work/c0"
[ "$(headers "$work/c0" | wc -l)" -ge 1 ] || fail "the first run wrote no precompiled header"
run "$work/off.txt" "$work/c2" --no-header-cache
diff -u "$work/off.txt" "$work/cold.txt" || fail "the header cache changes the output"
[ ! -e "$work/c2/headers-1" ] || fail "--no-header-cache wrote a header cache"

run_on "$few" "$work/few.txt" "$work/c1"
n=$(headers "$work/c1" | wc -l)
[ "$n" -ge 1 ] || fail "the first run on $few wrote no precompiled header"
listing "$work/c1" >"$work/before.txt"
run_on "$few" "$work/warm.txt" "$work/c1"
cmp -s "$work/few.txt" "$work/warm.txt" || fail "the warm run's output differs"
listing "$work/c1" >"$work/after.txt"
diff "$work/before.txt" "$work/after.txt" || fail "the warm run rebuilt a header"

for h in $(headers "$work/c1"); do
    head -c 100000 /dev/urandom >"$work/c1/headers-1/$h"
done
run_on "$few" "$work/damaged.txt" "$work/c1"
cmp -s "$work/few.txt" "$work/damaged.txt" || fail "a damaged header changed the output"
# the run that found it damaged removed it (or another thread rebuilt it);
# by the next run it is a precompiled header again
run_on "$few" "$work/after-damage.txt" "$work/c1"
cmp -s "$work/few.txt" "$work/after-damage.txt" || fail "the run after the damage differs"
[ "$(headers "$work/c1" | wc -l)" = "$n" ] || fail "the damaged header was not rebuilt"
for h in $(headers "$work/c1"); do
    [ "$(head -c 4 "$work/c1/headers-1/$h")" = CPCH ] || fail "the damaged header $h was not rebuilt"
done

for i in 1 2 3; do
    run_on "$few" "$work/par$i.txt" "$work/c3" &
done
wait
for i in 1 2 3; do
    cmp -s "$work/few.txt" "$work/par$i.txt" || fail "concurrent run $i differs"
done
[ "$(headers "$work/c3" | wc -l)" = "$n" ] || fail "concurrent runs wrote $(headers "$work/c3" | wc -l) headers, expected $n"
! ls "$work/c3/headers-1" | grep -q '\.tmp$' || fail "a temporary file was left behind"
echo "shim mode: $n header(s) built once, reused, rebuilt when damaged; the same output without them"

# ---- a file's own preamble (its leading #include lines) ----
# Built on the second request, used from then on, refused by libclang once
# a header it includes changes (the file is then parsed without it, and it
# is rebuilt), and ignored when damaged.
pdir=$work/preamble
mkdir -p "$pdir"
printf '#define WIDTH 32\n' >"$pdir/width.h"
cat >"$pdir/rows.cu" <<'EOF'
#include <cuda_runtime.h>
#include "width.h"

__global__ void first_column(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * WIDTH];
}
EOF
prun() { # prun N: kcheck on rows.cu; says whether it reports the strided load
    "$kcheck" --no-cache --cache-dir "$work/c6" --no-source --color=never "$pdir/rows.cu" >"$work/pre$1.txt" 2>&1
    st=$?
    [ "$st" -le 1 ] || { cat "$work/pre$1.txt"; fail "kcheck exited $st on the preamble test"; }
    if grep -q 'KC101' "$work/pre$1.txt"; then echo strided; else echo contiguous; fi
}
pres() { ls "$work/c6/headers-1" 2>/dev/null | grep -c '^pre-.*\.pch$'; }
[ "$(prun 1)" = strided ] || fail "the strided load was not reported"
[ "$(pres)" = 0 ] || fail "a preamble was precompiled on its first request"
[ "$(prun 2)" = strided ] || fail "the strided load was not reported (preamble being built)"
[ "$(pres)" = 1 ] || fail "the preamble was not precompiled on its second request"
ls -l --time-style=+%s.%N "$work/c6/headers-1" >"$work/pre-before.txt"
[ "$(prun 3)" = strided ] || fail "the strided load was not reported with the precompiled preamble"
ls -l --time-style=+%s.%N "$work/c6/headers-1" | diff "$work/pre-before.txt" - || fail "the preamble was rebuilt"
cmp -s "$work/pre1.txt" "$work/pre3.txt" || fail "the precompiled preamble changes the output"
printf '#define WIDTH 1 /* now contiguous */\n' >"$pdir/width.h"
touch -d "@$(($(date +%s) + 10))" "$pdir/width.h"
[ "$(prun 4)" = contiguous ] || fail "a stale precompiled preamble was used after its header changed"
[ "$(prun 5)" = contiguous ] || fail "the rebuilt preamble gives the old header's result"
[ "$(pres)" = 1 ] || fail "the stale preamble was not rebuilt"
for h in $(ls "$work/c6/headers-1" | grep '^pre-.*\.pch$'); do
    head -c 100000 /dev/urandom >"$work/c6/headers-1/$h"
done
[ "$(prun 6)" = contiguous ] || fail "a damaged precompiled preamble changed the result"
cmp -s "$work/pre5.txt" "$work/pre6.txt" || fail "a damaged precompiled preamble changed the output"
# Another valid header copied over the preamble's (with and without its
# record): libclang would accept it and parse the file without its
# preamble; its record's key and hash refuse it, and it is rebuilt.
[ "$(prun 7)" = contiguous ] || fail "the run after the damage changed the result"
shared=$(ls "$work/c6/headers-1" | grep '^cuda-.*\.pch$' | head -n 1)
pre=$(ls "$work/c6/headers-1" | grep '^pre-.*\.pch$' | head -n 1)
[ -n "$shared" ] && [ -n "$pre" ] || fail "no shared header or no preamble header to swap"
cp "$work/c6/headers-1/$shared" "$work/c6/headers-1/$pre"
[ "$(prun 8)" = contiguous ] || fail "a header copied over the preamble's changed the result"
cmp -s "$work/pre5.txt" "$work/pre8.txt" || fail "a header copied over the preamble's changed the output"
cp "$work/c6/headers-1/$shared" "$work/c6/headers-1/$pre"
cp "$work/c6/headers-1/${shared%.pch}.inc" "$work/c6/headers-1/${pre%.pch}.inc"
[ "$(prun 9)" = contiguous ] || fail "a header copied with its record over the preamble's changed the result"
cmp -s "$work/pre5.txt" "$work/pre9.txt" || fail "a header copied with its record over the preamble's changed the output"
cmp -s "$work/c6/headers-1/$shared" "$work/c6/headers-1/$pre" && fail "the copied header was not rebuilt"
echo "preamble: built on the second request, reused, rebuilt when a header changed, ignored when damaged or copied over"

# ---- a file size limit a header cannot be written under ----
# (the output goes through a pipe, which the limit does not cover: it is
# the cache's files that must not be written past it)
(ulimit -f 200 && "$kcheck" --no-cache --cache-dir "$work/c-limited" --no-source --color=never -j 2 $few 2>&1
    echo "exit $?") | cat >"$work/limited-st.txt"
st=$(tail -n 1 "$work/limited-st.txt")
sed '$d' "$work/limited-st.txt" >"$work/limited.txt"
[ "$st" = "exit 1" ] || fail "kcheck under ulimit -f 200: $st, expected exit 1"
cmp -s "$work/few.txt" "$work/limited.txt" || fail "under ulimit -f the output differs"
[ -z "$(headers "$work/c-limited")" ] || fail "a header was written past the file size limit"

# ---- the result cache where nothing can be written ----
# (findings as usual, exit 1, and one warning that they were not kept; the
# limit applies to kcheck alone, its output goes through pipes)
{ sh -c 'ulimit -f 0 && "$0" "$@"; echo "exit $?" >&2' "$kcheck" --cache-dir "$work/c-nowrite" --no-config \
    --color=never examples/cuda/matvec.cu 2>&3 | cat >"$work/nowrite.txt"; } 3>&1 | cat >"$work/nowrite-err.txt"
grep -q "matvec.cu:17:18: warning: uncoalesced load" "$work/nowrite.txt" ||
    { cat "$work/nowrite.txt" "$work/nowrite-err.txt"; fail "no finding when the result cache cannot be written"; }
grep -qx "exit 1" "$work/nowrite-err.txt" || { cat "$work/nowrite-err.txt"; fail "kcheck under ulimit -f 0: not exit 1"; }
grep -q "kcheck: warning: the result cache could not be written for 1 file" "$work/nowrite-err.txt" ||
    { cat "$work/nowrite-err.txt"; fail "no warning that the result cache was not written"; }
[ -z "$(find "$work/c-nowrite" -name '*.json*' -type f)" ] || fail "a result entry was left under ulimit -f 0"

# ---- toolkit mode ----
cuda=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$cuda/include/cuda_runtime.h" ]; then
    echo "toolkit mode: skipped, no CUDA toolkit at $cuda (set CUDA_PATH)"
    exit 0
fi
run "$work/tk-cold.txt" "$work/c4" --cuda-path "$cuda"
diff -u "$work/cold.txt" "$work/tk-cold.txt" || fail "toolkit mode's diagnostics differ from shim mode's"
[ "$(headers "$work/c4" | wc -l)" -ge 1 ] || fail "the first toolkit run wrote no precompiled header"
run_on "$few" "$work/tk-warm.txt" "$work/c4" --cuda-path "$cuda"
cmp -s "$work/few.txt" "$work/tk-warm.txt" || fail "the warm toolkit run's output differs"
run_on "$few" "$work/tk-off.txt" "$work/c5" --cuda-path "$cuda" --no-header-cache
cmp -s "$work/few.txt" "$work/tk-off.txt" || fail "--no-header-cache changes toolkit mode's output"
echo "toolkit mode: the same diagnostics as shim mode, with and without the header cache"
