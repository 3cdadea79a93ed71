#!/usr/bin/env bash
# Tiny synthetic Triton files, one per way of writing a kernel met (or expected)
# in public code, and what kcheck's --dump-model sees of each.
# usage: bench/census_probes.sh [DIR]   (env KCHECK, default /work/first/build/kcheck)
set -u
KCHECK=${KCHECK:-/work/first/build/kcheck}
d=${1:-/tmp/census-probes}
mkdir -p "$d" && cd "$d" || exit 1
body='    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)'
k() { printf '%s\n%s\n' "$1" "$body"; }
{ echo 'from vllm.triton_utils import tl, triton'; echo; echo '@triton.jit'
  k 'def k_reexport(x_ptr, n, BLOCK: tl.constexpr):'; } >reexport.py
{ echo 'import triton.language as tl'; echo 'from triton import jit'; echo; echo '@jit'
  k 'def k_jit(x_ptr, n, BLOCK: tl.constexpr):'; } >jit_from_triton.py
{ echo 'import triton'; echo 'import triton.language as tl'; echo
  k 'def k_call(x_ptr, n, BLOCK: tl.constexpr):'; echo 'k_call = triton.jit(k_call)'; } >jit_call.py
{ echo 'import triton'; echo 'import triton.language as tl'; echo; echo 'def make():'
  echo '    @triton.jit'; k 'def k_nested(x_ptr, n, BLOCK: tl.constexpr):' | sed 's/^/    /'
  echo '    return k_nested'; } >nested.py
{ echo 'import triton'; echo 'import triton.language as tl'; echo; echo '@triton.jit'
  k 'def k_star(x_ptr, n, BLOCK: tl.constexpr):'; echo; echo 'def backward(dx):'
  echo '    return dx, *[None] * 3'; } >star_return.py
{ echo 'import triton'; echo 'import triton.language as tl'; printf '# caf\xe9\n'; echo '@triton.jit'
  k 'def k_latin1(x_ptr, n, BLOCK: tl.constexpr):'; } >latin1.py
for f in reexport.py jit_from_triton.py jit_call.py nested.py star_return.py latin1.py; do
    n=$("$KCHECK" --no-config --no-cache --dump-model "$f" 2>/dev/null | grep -c '^kernel ')
    err=$("$KCHECK" --no-config --no-cache --severity note "$f" 2>&1 | grep -m1 'error:' | sed 's/^[^:]*:[0-9]*:[0-9]*: error: //')
    printf '%-20s kernels seen: %s  %s\n' "$f" "$n" "${err:+(exit 2: $err)}"
done
