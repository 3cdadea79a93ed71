#!/usr/bin/env bash
# kcheck's speed against the tools users would run instead, in one run, side
# by side (docs/performance.md records the figures and the command):
#
#   bench/speed.sh [-n CUDA_FILES] [-t TOOLKIT_FILES] [-o OUT_DIR] CUDA_DIR... -- TRITON_DIR...
#
#   1. CUDA, per file, the same flags: kcheck -j1 vs clang-tidy-19 (its
#      default checks), one process per file as pre-commit would start them,
#      over the first CUDA_FILES (default 40) .cu files of CUDA_DIR that
#      clang parses without an error with kcheck's headers (on a file with
#      errors clang-tidy runs no check, which would flatter it). Shim mode: clang-tidy gets the
#      headers and flags kcheck parses with (`kcheck --dump-shim`), plus the
#      empty stand-ins kcheck gives headers it does not know. Toolkit mode
#      (first TOOLKIT_FILES, default 10): both with the real CUDA headers;
#      kcheck cold (empty header cache) and warm (the shared header and each
#      file's preamble header built by two runs before timing). Both modes
#      also through `kcheck --server` (a client process per file; the
#      server started and warmed before timing).
#   2. Triton: kcheck -j1 over every .py file with a @triton.jit kernel in
#      TRITON_DIR vs tree-sitter's bare parse of the same files with the same
#      grammar (build/ts_parse).
#   3. The whole corpus (CUDA and Triton files): the result cache cold and
#      warm; -j1 vs -jN (N = cores); peak memory.
#   4. Size sweep: synthetic CUDA and Triton files of 10 kB to 10 MB (a
#      real-looking kernel repeated), time per MB.
#
# Needs: build/kcheck and build/ts_parse (./build.sh build), hyperfine,
# clang-tidy-19 and clang-19 (Debian: apt-get install hyperfine clang-tidy-19
# clang-19), a CUDA toolkit for the toolkit-mode rows (CUDA_PATH, default
# /usr/local/cuda; skipped without one). The corpora are public projects
# cloned at benchmark time (docs/performance.md says which); never commit
# them. Medians of hyperfine's runs; ratios from the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
KC=${KCHECK:-$ROOT/build/kcheck}
TS=${TS_PARSE:-$ROOT/build/ts_parse}
NCUDA=40 NTK=10 OUT=${TMPDIR:-/tmp}/kcheck-bench
while getopts n:t:o: opt; do
    case $opt in
    n) NCUDA=$OPTARG ;;
    t) NTK=$OPTARG ;;
    o) OUT=$OPTARG ;;
    *) sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
CUDA_DIRS=() TRITON_DIRS=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do CUDA_DIRS+=("$1"); shift; done
[ $# -gt 0 ] && shift
TRITON_DIRS=("$@")
[ ${#CUDA_DIRS[@]} -gt 0 ] && [ ${#TRITON_DIRS[@]} -gt 0 ] || { echo "usage: bench/speed.sh CUDA_DIR... -- TRITON_DIR..." >&2; exit 2; }
for t in hyperfine clang-tidy-19 clang-19 "$KC" "$TS"; do
    command -v "$t" >/dev/null 2>&1 || { echo "bench/speed.sh: $t not found (see the header of this script)" >&2; exit 2; }
done
CUDA=${CUDA_PATH:-/usr/local/cuda}
NPROC=$(nproc)
rm -rf "$OUT"
mkdir -p "$OUT"
export KCHECK_CACHE_DIR=$OUT/cache
log() { printf '==> %s\n' "$*" >&2; }

# hyperfine's median of a command (seconds), from its JSON export.
median() { python3 -c 'import json,sys; print("%.4f" % json.load(open(sys.argv[1]))["results"][0]["median"])' "$1"; }
# time_script NAME RUNS [hyperfine options...]: median seconds of the script
# $OUT/NAME.sh under hyperfine; its export is kept in $OUT/NAME.json.
time_script() {
    local name=$1 runs=$2
    shift 2
    hyperfine -N -i --style none --runs "$runs" --warmup 1 "$@" --export-json "$OUT/$name.json" \
        "bash $OUT/$name.sh" >/dev/null
    median "$OUT/$name.json"
}
# bench NAME RUNS [hyperfine options...] -- CMD ARG...: median seconds of CMD
# (arguments quoted into a script).
bench() {
    local name=$1 runs=$2
    shift 2
    local opts=()
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    { printf 'exec'; printf ' %q' "$@"; printf ' >/dev/null 2>&1\n'; } >"$OUT/$name.sh"
    time_script "$name" "$runs" "${opts[@]}"
}
# bench_loop NAME RUNS LIST [hyperfine options...] -- CMD ARG...: CMD once per
# file of LIST, one process each, `{}` standing for the file.
bench_loop() {
    local name=$1 runs=$2 list=$3
    shift 3
    local opts=()
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    {
        printf 'while IFS= read -r f; do'
        for a in "$@"; do
            if [ "$a" = '{}' ]; then printf ' "$f"'; else printf ' %q' "$a"; fi
        done
        printf ' >/dev/null 2>&1; done <%q\n' "$list"
    } >"$OUT/$name.sh"
    time_script "$name" "$runs" "${opts[@]}"
}
ratio() { python3 -c 'import sys; print("%.1f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
ms() { python3 -c 'import sys; print("%.1f" % (1000 * float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
# peak resident memory (KiB) of a command whose exit status is its own business
peak_kb() { { /usr/bin/time -f %M "$@" 2>&1 >/dev/null || true; } | tail -1; }

echo "# kcheck speed, $(date -u +%Y-%m-%d), $(nproc) cores, $(uname -m)"
echo "kcheck: $("$KC" --version | head -1); $(clang-tidy-19 --version | grep -m1 version); $(hyperfine --version)"
echo

# ---- 1. CUDA per file ---------------------------------------------------------
log "CUDA: choosing files clang parses with kcheck's headers"
"$KC" --dump-shim "$OUT/shim" >/dev/null
mapfile -t all_cu < <(find "${CUDA_DIRS[@]}" -name '*.cu' -type f | LC_ALL=C sort)
# Headers kcheck does not know get empty stand-ins in kcheck; give clang the
# same ones (in the -idirafter directory), a few passes deep.
mapfile -t shim_flags <"$OUT/shim/compile_flags.txt"
# clang_errors TOOL FILE FLAG...: what TOOL prints about FILE (its status ignored)
clang_errors() { local tool=$1 f=$2; shift 2; "$tool" -fsyntax-only "$@" "$f" 2>&1 || true; }
for pass in 1 2 3 4; do
    missing=$(for f in "${all_cu[@]}"; do
        clang_errors clang-19 "$f" "${shim_flags[@]}" | sed -n "s/.*fatal error: '\(.*\)' file not found.*/\1/p"
    done | sort -u)
    [ -n "$missing" ] || break
    while read -r h; do mkdir -p "$OUT/shim/stub/$(dirname "$h")"; : >"$OUT/shim/stub/$h"; done <<<"$missing"
done
cu=()
for f in "${all_cu[@]}"; do
    [ ${#cu[@]} -ge "$NCUDA" ] && break
    # only files without errors: clang-tidy runs no check on a file with one
    case $(clang_errors clang-19 "$f" "${shim_flags[@]}") in
    *"error"*) ;;
    *) cu+=("$f") ;;
    esac
done
printf '%s\n' "${cu[@]}" >"$OUT/cuda-files.txt"
cu_bytes=$(cat "${cu[@]}" | wc -c)
log "CUDA shim mode: ${#cu[@]} files, $cu_bytes bytes"
# Warm: the shared header and each file's preamble header (built on its
# second request) in the cache before timing.
for i in 1 2; do "$KC" --no-cache -j1 -q "${cu[@]}" >/dev/null 2>&1 || true; done
t_kc=$(bench_loop cuda-shim-kcheck 3 "$OUT/cuda-files.txt" -- "$KC" --no-cache -j1 -q {})
t_ct=$(bench_loop cuda-shim-clang-tidy 3 "$OUT/cuda-files.txt" -- clang-tidy-19 -quiet {} -- "${shim_flags[@]}")
echo "## CUDA, per file (${#cu[@]} files, $cu_bytes bytes; one process per file)"
echo
echo "| mode | kcheck -j1 | clang-tidy-19 | ratio |"
echo "|---|---|---|---|"
echo "| shim | $(ms "$t_kc" ${#cu[@]}) ms/file | $(ms "$t_ct" ${#cu[@]}) ms/file | $(ratio "$t_ct" "$t_kc")x |"
# through the server (kcheck --server): a client process per file, the
# check run in the server, which keeps libclang loaded; started and warmed
# (one run over the files) before timing, stopped at the end.
export KCHECK_SERVER_DIR=$OUT/server
mkdir -p -m 700 "$KCHECK_SERVER_DIR"
trap '"$KC" server stop >/dev/null 2>&1 || true' EXIT
"$KC" server start >/dev/null
"$KC" --server --no-cache -j1 -q "${cu[@]}" >/dev/null 2>&1 || true
t_ks=$(bench_loop cuda-shim-kcheck-server 3 "$OUT/cuda-files.txt" -- "$KC" --server --no-cache -j1 -q {})
echo "| shim, through \`--server\` | $(ms "$t_ks" ${#cu[@]}) ms/file | $(ms "$t_ct" ${#cu[@]}) ms/file | $(ratio "$t_ct" "$t_ks")x |"
# the same files in one process each (pre-commit passes many files at once)
t_kc1=$(bench cuda-shim-kcheck-one-process 3 -- "$KC" --no-cache -j1 -q "${cu[@]}")
t_ct1=$(bench cuda-shim-clang-tidy-one-process 3 -- clang-tidy-19 -quiet "${cu[@]}" -- "${shim_flags[@]}")
echo "| shim, all files in one process | $(ms "$t_kc1" ${#cu[@]}) ms/file | $(ms "$t_ct1" ${#cu[@]}) ms/file | $(ratio "$t_ct1" "$t_kc1")x |"
if [ -f "$CUDA/include/cuda_runtime.h" ]; then
    head -n "$NTK" "$OUT/cuda-files.txt" >"$OUT/toolkit-files.txt"
    ntk=$(wc -l <"$OUT/toolkit-files.txt")
    "$KC" --toolkit --cuda-path "$CUDA" --dump-shim "$OUT/tk" >/dev/null
    # the flags kcheck uses (its compat headers under $OUT/tk) and kcheck's empty stand-ins
    cp -R "$OUT/shim/stub/." "$OUT/tk/stub/"
    kc_tk=("$KC" --no-cache -j1 -q --toolkit --cuda-path "$CUDA")
    mapfile -t tk_flags <"$OUT/tk/compile_flags.txt"
    # clang 19's CUDA wrapper includes texture_fetch_functions.h, which CUDA
    # 13 dropped, and clang 19 looks up the launch function CUDA 13 dropped:
    # a stand-in that declares it (kcheck has its own when built with 19).
    mkdir -p "$OUT/tk/compat-clang19"
    printf '%s\n' 'extern "C" cudaError_t cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);' \
        >"$OUT/tk/compat-clang19/texture_fetch_functions.h"
    tk_flags+=("-I$OUT/tk/compat-clang19")
    while IFS= read -r f; do
        case $(clang_errors clang-19 "$f" "${tk_flags[@]}") in
        *"error"*) log "warning: clang 19 reports errors in $f in toolkit mode: clang-tidy skips its checks there" ;;
        esac
    done <"$OUT/toolkit-files.txt"
    t_cold=$(bench_loop cuda-toolkit-kcheck-cold 3 "$OUT/toolkit-files.txt" --prepare "rm -rf $KCHECK_CACHE_DIR/headers-1" -- "${kc_tk[@]}" {})
    mapfile -t tk_files <"$OUT/toolkit-files.txt"
    for i in 1 2; do "${kc_tk[@]}" "${tk_files[@]}" >/dev/null 2>&1 || true; done
    t_warm=$(bench_loop cuda-toolkit-kcheck-warm 3 "$OUT/toolkit-files.txt" -- "${kc_tk[@]}" {})
    "${kc_tk[@]}" --server "${tk_files[@]}" >/dev/null 2>&1 || true
    t_tks=$(bench_loop cuda-toolkit-kcheck-server 3 "$OUT/toolkit-files.txt" -- "${kc_tk[@]}" --server {})
    t_off=$(bench_loop cuda-toolkit-kcheck-no-header-cache 3 "$OUT/toolkit-files.txt" -- "${kc_tk[@]}" --no-header-cache {})
    t_ctk=$(bench_loop cuda-toolkit-clang-tidy 3 "$OUT/toolkit-files.txt" -- clang-tidy-19 -quiet {} -- "${tk_flags[@]}")
    t_tk1=$(bench cuda-toolkit-kcheck-one-process 3 -- "${kc_tk[@]}" "${tk_files[@]}")
    t_ctk1=$(bench cuda-toolkit-clang-tidy-one-process 3 -- clang-tidy-19 -quiet "${tk_files[@]}" -- "${tk_flags[@]}")
    echo "| toolkit, warm header cache ($ntk files) | $(ms "$t_warm" "$ntk") ms/file | $(ms "$t_ctk" "$ntk") ms/file | $(ratio "$t_ctk" "$t_warm")x |"
    echo "| toolkit, warm, through \`--server\` | $(ms "$t_tks" "$ntk") ms/file | $(ms "$t_ctk" "$ntk") ms/file | $(ratio "$t_ctk" "$t_tks")x |"
    echo "| toolkit, warm, all files in one process | $(ms "$t_tk1" "$ntk") ms/file | $(ms "$t_ctk1" "$ntk") ms/file | $(ratio "$t_ctk1" "$t_tk1")x |"
    echo "| toolkit, cold header cache (the first file builds it) | $(ms "$t_cold" "$ntk") ms/file | $(ms "$t_ctk" "$ntk") ms/file | $(ratio "$t_ctk" "$t_cold")x |"
    echo "| toolkit, --no-header-cache | $(ms "$t_off" "$ntk") ms/file | $(ms "$t_ctk" "$ntk") ms/file | $(ratio "$t_ctk" "$t_off")x |"
else
    echo "| toolkit | skipped: no CUDA toolkit at $CUDA | | |"
fi
echo

# ---- 2. Triton vs tree-sitter's bare parse ----------------------------------------
mapfile -t py < <({ grep -rlE --include='*.py' '(@|\.)jit\b' "${TRITON_DIRS[@]}" || true; } |
    { xargs -r grep -lE '^\s*(import triton|from triton)' || true; } | LC_ALL=C sort)
printf '%s\n' "${py[@]}" >"$OUT/triton-files.txt"
py_bytes=$(cat "${py[@]}" | wc -c)
log "Triton: ${#py[@]} files, $py_bytes bytes"
t_kpy=$(bench triton-kcheck 5 -- "$KC" --no-cache -j1 -q "${py[@]}")
t_ts=$(bench triton-ts-parse 5 -- "$TS" "${py[@]}")
echo "## Triton (${#py[@]} files with kernels, $py_bytes bytes; one process)"
echo
echo "| kcheck -j1 | tree-sitter bare parse | ratio |"
echo "|---|---|---|"
echo "| $(python3 -c "print('%.3f' % $t_kpy)") s | $(python3 -c "print('%.3f' % $t_ts)") s | $(ratio "$t_kpy" "$t_ts")x |"
echo

# ---- 3. Whole corpus: result cache, threads, memory ---------------------------------
all=("${cu[@]}" "${py[@]}")
log "whole corpus: ${#all[@]} files"
t_j1=$(bench corpus-j1 3 -- "$KC" --no-cache -j1 -q "${all[@]}")
t_jn=$(bench corpus-jN 3 -- "$KC" --no-cache -j "$NPROC" -q "${all[@]}")
t_c_cold=$(bench corpus-cache-cold 3 --prepare "rm -rf $KCHECK_CACHE_DIR/results-1" -- "$KC" -q "${all[@]}")
t_c_warm=$(bench corpus-cache-warm 5 -- "$KC" -q "${all[@]}")
m_j1=$(peak_kb "$KC" --no-cache -j1 -q "${all[@]}")
m_jn=$(peak_kb "$KC" --no-cache -j "$NPROC" -q "${all[@]}")
echo "## Whole corpus (${#all[@]} files)"
echo
echo "| run | time | peak memory |"
echo "|---|---|---|"
echo "| -j1, no result cache | $(python3 -c "print('%.3f' % $t_j1)") s | $((m_j1 / 1024)) MiB |"
echo "| -j$NPROC, no result cache | $(python3 -c "print('%.3f' % $t_jn)") s ($(ratio "$t_j1" "$t_jn")x -j1) | $((m_jn / 1024)) MiB |"
echo "| -j$NPROC, result cache cold | $(python3 -c "print('%.3f' % $t_c_cold)") s | |"
echo "| -j$NPROC, result cache warm | $(python3 -c "print('%.3f' % $t_c_warm)") s ($(ratio "$t_c_cold" "$t_c_warm")x faster than cold) | |"
echo

# ---- 4. Size sweep ------------------------------------------------------------------
log "size sweep"
mkdir -p "$OUT/sweep"
echo "## Size sweep (one file, -j1, no result cache)"
echo
echo "| language | size | time | ms per MB | peak memory |"
echo "|---|---|---|---|---|"
for lang in cu py; do
    for kb in 10 100 1000 10000; do
        f=$OUT/sweep/k$kb.$lang
        python3 - "$f" "$kb" "$lang" <<'EOF'
import sys
path, kb, lang = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if lang == "cu":
    unit = """__global__ void scale_{i}(const float *x, float *y, int n, float a)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}}

"""
    head = ""
else:
    unit = """@triton.jit
def scale_{i}(x_ptr, y_ptr, n, a, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, a * x, mask=mask)


"""
    head = "import triton\nimport triton.language as tl\n\n\n"
out, i = [head], 0
size = len(head)
while size < kb * 1000:
    s = unit.format(i=i)
    out.append(s)
    size += len(s)
    i += 1
open(path, "w").write("".join(out))
EOF
        t=$(bench "sweep-$kb.$lang" 3 -- "$KC" --no-cache -j1 -q --max-file-size 64M "$f")
        m=$(peak_kb "$KC" --no-cache -j1 -q "$f")
        bytes=$(wc -c <"$f")
        echo "| $lang | $((bytes / 1000)) kB | $(python3 -c "print('%.3f' % $t)") s | $(python3 -c "print('%.0f' % ($t / ($bytes / 1e6)))") | $((m / 1024)) MiB |"
    done
done
echo
echo "Raw hyperfine exports: $OUT/*.json"
