#!/bin/sh
# `cmake --install` puts the binary, the man page, the rule docs and the
# reference kernels where they belong, and the installed binary runs.
# From another directory, it checks a copy of the examples with their
# findings.
#   check_install.sh BUILD_DIR PREFIX [SOURCE_DIR]
set -eu
build=$1
prefix=$2
src=${3:-}
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/kcheck lib/kcheck/kcheck-cuda.so share/man/man1/kcheck.1 share/doc/kcheck/rules.md share/doc/kcheck/ci.md \
    share/doc/kcheck/rules/KC101-uncoalesced-access.md share/kcheck/reference/ops/axpy.json; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
"$prefix/bin/kcheck" --version
"$prefix/bin/kcheck" --explain KC101 | grep -q '## What it does'
if [ -n "$src" ]; then
    mkdir -p "$prefix/elsewhere"
    cp -r "$src/examples" "$prefix/elsewhere/examples"
    st=0
    (cd "$prefix/elsewhere" && "$prefix/bin/kcheck" --no-config --no-cache --format concise examples >out.txt 2>&1) || st=$?
    [ "$st" = 1 ] || { cat "$prefix/elsewhere/out.txt"; echo "examples: exit $st, expected 1 (findings)" >&2; exit 1; }
    grep -q 'examples/cuda/matvec.cu:17:18: warning: uncoalesced load' "$prefix/elsewhere/out.txt" &&
        grep -q 'examples/seeds/seed000_cross_entropy.py:28:37: error:' "$prefix/elsewhere/out.txt" ||
        { cat "$prefix/elsewhere/out.txt"; echo "the installed kcheck misses the examples' findings" >&2; exit 1; }
fi
# the installed binary loads its CUDA front end from lib/kcheck
printf '__global__ void k(float *p) { p[threadIdx.x] = 0; }\n' >"$prefix/k.cu"
"$prefix/bin/kcheck" --no-cache "$prefix/k.cu" >/dev/null
# without the module: CUDA files are input errors (exit 2), Python files are still checked
rm "$prefix/lib/kcheck/kcheck-cuda.so"
printf 'import triton\n' >"$prefix/k.py"
st=0
"$prefix/bin/kcheck" --no-cache "$prefix/k.cu" "$prefix/k.py" >"$prefix/out.txt" 2>&1 || st=$?
[ "$st" = 2 ] || { cat "$prefix/out.txt"; echo "expected exit 2 without the CUDA module, got $st" >&2; exit 1; }
grep -q "the CUDA front end could not be loaded: kcheck-cuda.so not found" "$prefix/out.txt" ||
    { cat "$prefix/out.txt"; exit 1; }
grep -q "(2 files)" "$prefix/out.txt" || { cat "$prefix/out.txt"; exit 1; }
echo "installed layout is complete"
