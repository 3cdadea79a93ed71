#!/bin/sh
# The result cache's key covers the CUDA module (kcheck-cuda.so) as well as
# the binary: a CUDA file checked while the module was missing (an input
# error) is checked again once the module is there, and a module rebuilt
# without the binary is not served the old module's results.
#   check_cache_module.sh KCHECK CUDA_MODULE SOURCE_DIR WORK_DIR
set -u
kcheck=$1 module=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/bin" || exit 2
cp "$kcheck" "$work/bin/kcheck" || exit 2
f="$src/tests/fixtures/KC303_missing-bounds-check/bad_cuda_unguarded.cu"
run() { "$work/bin/kcheck" --no-config --no-source --color=never --cache-dir "$work/cache" "$f" >"$work/out" 2>&1; }
run; st=$?
[ $st = 2 ] && grep -q "could not be loaded" "$work/out" || { cat "$work/out"; echo "FAIL: without the module: exit $st"; exit 1; }
cp "$module" "$work/bin/" || exit 2
run; st=$?
[ $st = 1 ] && grep -q "KC303" "$work/out" || { cat "$work/out"; echo "FAIL: the module's arrival served the cached error (exit $st)"; exit 1; }
# the same module rewritten (a rebuild): its new identity is a new key
touch -d '2001-01-01' "$work/bin/$(basename "$module")"
run; st=$?
[ $st = 1 ] || { echo "FAIL: after the module changed: exit $st"; exit 1; }
n=$(ls "$work/cache" | wc -l)
echo "ok: the cache key follows the CUDA module ($n cache entries)"
