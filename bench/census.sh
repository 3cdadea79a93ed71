#!/usr/bin/env bash
# Census: how much of a project's GPU kernel code kcheck sees.
#
# usage: bench/census.sh PROJECT_DIR...
#   env: KCHECK (default /work/first/build/kcheck), OUT (default /tmp/census-out),
#        JOBS (default 8)
#
# For every PROJECT_DIR (an extracted source tree) it writes OUT/NAME/:
#   files_main.lst   the files given to kcheck: .py files whose text contains
#                    "triton", and every .cu/.cuh file (NUL-separated)
#   files_h.lst      .h/.hpp files that contain __global__ (tried separately)
#   grep_triton_dec.txt   file:line of `@triton.jit` / `@jit` decorators in .py
#   grep_triton_call.txt  file:line of `triton.jit(` calls that are not decorators
#   grep_global.txt       file:line of every `__global__` occurrence (all text files)
#   out.json, stats.txt, rc       kcheck --format json / --stats over files_main
#   model.txt, model.err          kcheck --dump-model over files_main (kernels seen)
#   out_h.json, stats_h.txt, rc_h kcheck over files_h
#   model_h.txt                   kcheck --dump-model over files_h (their kernels seen)
# and then runs bench/census.py over all of OUT/NAME, which prints the summary
# (OUT/summary.md, OUT/summary.json).
set -u
KCHECK=${KCHECK:-/work/first/build/kcheck}
OUT=${OUT:-/tmp/census-out}
JOBS=${JOBS:-8}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
"$KCHECK" --version >"$OUT/kcheck-version" 2>&1
dirs=()
for dir in "$@"; do
    dir=$(cd "$dir" && pwd) || continue
    name=$(basename "$dir")
    o=$OUT/$name
    rm -rf "$o"
    mkdir -p "$o"
    dirs+=("$o")
    echo "$dir" >"$o/root"
    (
        cd "$dir" || exit 1
        git_commit=$(cat .census-commit 2>/dev/null || true)
        echo "$git_commit" >"$o/commit"
        # file lists, relative paths, sorted
        find . -type f -name '*.py' -print0 | sort -z | xargs -0 -r grep -lZ triton >"$o/files_main.lst"
        find . -type f \( -name '*.cu' -o -name '*.cuh' \) -print0 | sort -z >>"$o/files_main.lst"
        find . -type f \( -name '*.h' -o -name '*.hpp' \) -print0 | sort -z |
            xargs -0 -r grep -lZ __global__ >"$o/files_h.lst"
        # grep counts (one line per hit)
        grep -rnE --include='*.py' '^[[:space:]]*@(triton\.)?jit\b' . >"$o/grep_triton_dec.txt"
        grep -rnE --include='*.py' 'triton\.jit\(' . |
            grep -vE '^[^:]*:[0-9]+:[[:space:]]*@' >"$o/grep_triton_call.txt"
        grep -rnIo '__global__' . >"$o/grep_global.txt"
        # kcheck over the .py + .cu/.cuh files, in one invocation
        mapfile -d '' files <"$o/files_main.lst"
        if ((${#files[@]})); then
            "$KCHECK" --no-cache --no-config -j"$JOBS" --stats --format json --severity note \
                --end-of-options "${files[@]}" >"$o/out.json" 2>"$o/stats.txt"
            echo $? >"$o/rc"
            "$KCHECK" --no-cache --no-config -j"$JOBS" --dump-model \
                --end-of-options "${files[@]}" >"$o/model.txt" 2>"$o/model.err"
            echo $? >"$o/rc_model"
        fi
        # the headers with __global__, separately (checked since kcheck reads
        # headers with device code; their kernels in model_h.txt)
        mapfile -d '' hfiles <"$o/files_h.lst"
        if ((${#hfiles[@]})); then
            "$KCHECK" --no-cache --no-config -j"$JOBS" --stats --format json --severity note \
                --end-of-options "${hfiles[@]}" >"$o/out_h.json" 2>"$o/stats_h.txt"
            echo $? >"$o/rc_h"
            "$KCHECK" --no-cache --no-config -j"$JOBS" --dump-model \
                --end-of-options "${hfiles[@]}" >"$o/model_h.txt" 2>"$o/model_h.err"
        fi
    )
    echo "census: $name done" >&2
done
python3 "$here/census.py" "${dirs[@]}" --md "$OUT/summary.md" --json "$OUT/summary.json"
