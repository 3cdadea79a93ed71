#!/usr/bin/env bash
# Fuzz kcheck with libFuzzer (fuzz/, docs/robustness.md).
#
#   scripts/fuzz.sh [SECONDS] [HARNESS...]
#
# Builds the harnesses with clang (KCHECK_FUZZ=ON, ASan + UBSan, in
# $FUZZ_BUILD, default build-fuzz), then runs each harness (default: all of
# fuzz_triton fuzz_cuda fuzz_config fuzz_verify fuzz_cache fuzz_server) for SECONDS (default 600),
# $FUZZ_JOBS at a time (default 2). Each harness starts from its seed corpus
# (fuzz/corpus/HARNESS, never written) and keeps what it finds in
# $FUZZ_BUILD/corpus/HARNESS, so later runs go on from there. Crashes, leaks,
# UB and inputs slower than 25 s are written to $FUZZ_BUILD/artifacts/HARNESS/
# and make the script exit 1. The last lines are a table: executions,
# coverage (edges, features), corpus size, artifacts.
#
# Needs clang-19 and libclang-rt-19-dev (Debian); without them it says so
# and exits 0 (nothing to run), or 77 with FUZZ_REQUIRE=1.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
SECONDS_EACH=${1:-600}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -gt 0 ] || HARNESSES=(fuzz_triton fuzz_cuda fuzz_config fuzz_verify fuzz_cache fuzz_server)
BUILD=${FUZZ_BUILD:-build-fuzz}
JOBS=${FUZZ_JOBS:-2}
CC_FUZZ=${FUZZ_CC:-clang-19}

log() { printf '==> %s\n' "$*" >&2; }

skip() {
    log "fuzzing skipped: $*"
    [ "${FUZZ_REQUIRE:-0}" = 1 ] && exit 77
    exit 0
}
command -v "$CC_FUZZ" >/dev/null 2>&1 || skip "$CC_FUZZ not found (Debian: apt-get install clang-19 libclang-rt-19-dev)"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
"$CC_FUZZ" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1 ||
    skip "$CC_FUZZ cannot link libFuzzer (Debian: apt-get install libclang-rt-19-dev)"

log "building the harnesses in $BUILD ($CC_FUZZ, ASan + UBSan + libFuzzer)"
# Warnings are errors in the gcc builds; clang's extra warnings do not stop fuzzing.
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_C_COMPILER="$CC_FUZZ" -DKCHECK_FUZZ=ON -DKCHECK_TESTS=OFF \
    -DKCHECK_WERROR=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 2
cmake --build "$BUILD" -j "$(nproc 2>/dev/null || echo 2)" --target "${HARNESSES[@]}" >"$BUILD/fuzz-build.log" 2>&1 ||
    { tail -40 "$BUILD/fuzz-build.log" >&2; exit 2; }

export LSAN_OPTIONS="suppressions=$ROOT/tests/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_leaks=1:detect_stack_use_after_return=1:intercept_tls_get_addr=0"

run_one() {
    local h=$1
    local corpus=$BUILD/corpus/$h art=$BUILD/artifacts/$h logf=$BUILD/logs/$h.log
    mkdir -p "$corpus" "$art" "$BUILD/logs"
    local dict=()
    [ -f "fuzz/dict/$h.dict" ] && dict=(-dict="fuzz/dict/$h.dict")
    "$BUILD/fuzz/$h" "${dict[@]}" -max_total_time="$SECONDS_EACH" -timeout=25 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$art/" "$corpus" "fuzz/corpus/$h" >"$logf" 2>&1
    echo $? >"$BUILD/logs/$h.rc"
}

log "running ${HARNESSES[*]} for ${SECONDS_EACH}s each, $JOBS at a time (logs in $BUILD/logs)"
running=0
for h in "${HARNESSES[@]}"; do
    run_one "$h" &
    running=$((running + 1))
    if [ "$running" -ge "$JOBS" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

status=0
printf '%-12s %12s %8s %8s %8s %10s %9s  %s\n' harness executions exec/s edges features corpus artifacts result
for h in "${HARNESSES[@]}"; do
    logf=$BUILD/logs/$h.log
    rc=$(cat "$BUILD/logs/$h.rc" 2>/dev/null || echo 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logf" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logf" | tail -1)
    last=$(grep -E '^#[0-9]+.*cov: ' "$logf" | tail -1)
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
    ncorp=$(find "$BUILD/corpus/$h" -type f | wc -l)
    nart=$(find "$BUILD/artifacts/$h" -type f | wc -l)
    result=ok
    if [ "$rc" != 0 ] || [ "$nart" != 0 ]; then
        result="FAILED (exit $rc; see $logf)"
        status=1
        grep -E 'ERROR: |SUMMARY: |runtime error' "$logf" | head -5 >&2
    fi
    printf '%-12s %12s %8s %8s %8s %10s %9s  %s\n' "$h" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" \
        "$ncorp" "$nart" "$result"
done
exit $status
