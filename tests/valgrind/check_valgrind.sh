#!/bin/sh
# Memcheck over the CLI: kcheck on the examples and the fixtures in each
# output format, --fix and --diff, configuration, suppressions and
# baselines, verify replaying recorded results, and hostile inputs. Any
# memory error or leak (definite or indirect) fails; only errors inside
# libclang/libLLVM themselves are suppressed (kcheck.supp says why).
#
#   check_valgrind.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1 src=$2 work=$3
if ! command -v valgrind >/dev/null 2>&1; then
    echo "skipped: valgrind is not installed (Debian: apt-get install valgrind)"
    exit 77
fi
rm -rf "$work"
mkdir -p "$work"
logs=$work/logs
mkdir -p "$logs"
# A cache directory of its own: the first CUDA run builds the precompiled
# headers (cuda_pch.h), the later ones read them; both under memcheck.
export KCHECK_CACHE_DIR="$work/cache"
n=0
failed=0
vg() { # vg NAME WANT ARGS...: kcheck ARGS under memcheck, expecting exit status WANT
    name=$1 want=$2
    shift 2
    n=$((n + 1))
    # --no-cache: every run reaches the front ends (after the subcommand, if any)
    if [ "${1-}" = verify ]; then
        shift
        set -- verify --no-cache "$@"
    else
        set -- --no-cache "$@"
    fi
    valgrind --quiet --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
        --errors-for-leak-kinds=definite,indirect --num-callers=40 --suppressions="$src/tests/valgrind/kcheck.supp" \
        --log-file="$logs/$name.vg" "$kcheck" "$@" >"$logs/$name.out" 2>"$logs/$name.err"
    st=$?
    if [ "$st" = 99 ]; then
        echo "FAILED: $name: memcheck errors: kcheck $*"
        head -80 "$logs/$name.vg"
        failed=$((failed + 1))
    elif [ "$st" != "$want" ]; then
        echo "FAILED: $name: kcheck exited $st, expected $want: kcheck $*"
        tail -20 "$logs/$name.out" "$logs/$name.err"
        failed=$((failed + 1))
    else
        echo "ok: $name (kcheck exit $st)"
    fi
}

# The examples, every Triton fixture and the CUDA fixtures that report
# (bad_*) on two threads; the other formats on a few. (Every CUDA fixture
# took 55 s of memcheck alone, 110 s of CI's 15 minutes beside the other
# tests; the ok_ ones are checked under ASan and UBSan.)
find "$src/tests/fixtures" \( -name '*.py' -o -name 'bad_*.cu' -o -name 'bad_*.cuh' \) | sort >"$work/text-inputs"
set -- "$src/examples"
while IFS= read -r f; do
    set -- "$@" "$f"
done <"$work/text-inputs"
vg text 1 -j 2 "$@"
vg json 1 -j 2 --format json "$src/tests/fixtures/seeds" "$src/examples/cuda"
vg sarif 1 -j 2 --format sarif --stats "$src/examples/seeds"
vg github 1 -j 2 --format github "$src/tests/fixtures/seeds"
vg dump-model 0 --dump-model "$src/examples/seeds" "$src/examples/cuda"

# --fix and --diff on copies, a baseline, suppressions and a configuration.
mkdir -p "$work/fix"
# (KC302 has findings without a fix-it: --fix leaves them, exit 1)
for d in "$src"/tests/fixtures/KC201_* "$src"/tests/fixtures/KC202_* "$src"/tests/fixtures/KC301_* "$src"/tests/fixtures/KC302_*; do
    cp -R "$d" "$work/fix/"
done
# --diff prints what --fix writes, from the same fix-its: on the Triton
# copies alone (the CUDA ones cost 10 s of memcheck under --diff too).
vg diff 1 --diff "$work/fix"/KC202_* "$work/fix"/KC301_* "$work/fix"/KC302_*
vg fix 1 -j 2 --fix "$work/fix"
vg write-baseline 0 --write-baseline "$work/baseline.json" "$src/tests/fixtures/seeds"
vg baseline 0 --baseline "$work/baseline.json" "$src/tests/fixtures/seeds"
mkdir -p "$work/cfg/sub"
cat >"$work/cfg/.kcheck.yaml" <<'YAML'
select: [ALL]
ignore: [KC102]
options: {KC201.max-trip-count: 64}
overrides:
  - files: ["sub/*.py"]
    ignore: [KC101, view-reorder]
YAML
cp "$src/tests/fixtures/seeds/"*.py "$work/cfg/sub/"
printf 'import triton\n# kcheck: ignore-file[KC9]\nx = 1  # kcheck: ignore[KC1O1]\n# kcheck: bogus\n' >"$work/cfg/supp.py"
vg config 1 --report-unused-suppressions "$work/cfg"
vg dump-config 0 --dump-config "$work/cfg/sub"
printf 'select: [KC1\n' >"$work/bad.yaml"
vg bad-config 2 --config "$work/bad.yaml" "$work/cfg"

# verify: replaying the recorded results (no GPU needed), and a plan only.
vg verify-results 1 verify --results "$src/tests/verify/results" --reference-dir "$src/tests/verify/reference" \
    "$src/tests/verify/cases/strided_scale.py"
vg verify-export 1 verify --export "$work/bundle" --reference-dir "$src/tests/verify/reference" \
    "$src/tests/verify/cases/strided_scale.py"

# Hostile inputs: binary, invalid UTF-8, deep nesting, a FIFO, a loop, regressions.
mkdir -p "$work/hostile"
printf 'import triton\n\000\001binary' >"$work/hostile/bin.py"
printf '# caf\351\n' >"$work/hostile/latin1.cu"
awk 'BEGIN { s = "import triton\nx = "; for (i = 0; i < 3000; i++) s = s "("; s = s "1"; for (i = 0; i < 3000; i++) s = s ")"; print s }' \
    >"$work/hostile/deep.py"
awk 'BEGIN { s = "__global__ void k(float *p, int n) {\n  int x = "; for (i = 0; i < 3000; i++) s = s "- "; print s "n;\n  p[x] = 0;\n}" }' \
    >"$work/hostile/deep.cu"
mkfifo "$work/hostile/fifo.py"
ln -s loop.cu "$work/hostile/loop.cu"
cp "$src/tests/hostile/regress/"* "$work/hostile/" 2>/dev/null
vg hostile 2 -j 2 "$work/hostile"
vg usage 2 --bogus-option
vg explain 0 --explain KC101
vg list 0 --list-rules

echo "$n memcheck runs, $failed failed"
[ "$failed" = 0 ]
