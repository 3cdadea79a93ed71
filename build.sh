#!/usr/bin/env bash
# kcheck's one entry point for developers and CI.
#
#   ./build.sh demo    install what is missing, build, run kcheck on examples/
#   ./build.sh test    install what is missing, build (plain and ASan+UBSan), run the whole test suite
#                      (valgrind memcheck of the CLI in the plain build), then fuzz each libFuzzer
#                      harness for KCHECK_FUZZ_SECONDS (default 10) when clang-19 is there
#   ./build.sh deps    only install what is missing
#   ./build.sh build   only build (build/)
#
# Dependencies come from Debian packages and, for the tree-sitter-python
# grammar and the SARIF validators of the test suite, from the npm registry
# through the lockfiles in third_party/tree-sitter-python and tools/sarif
# (npm ci --ignore-scripts).
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$(pwd)
JOBS=$(nproc 2>/dev/null || echo 2)

log() { printf '==> %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo "$@"
    else log "need root to run: $*"; return 1; fi
}

pkg_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

apt_install() {
    local missing=()
    for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    if ! as_root apt-get install -y --no-install-recommends "${missing[@]}"; then
        as_root apt-get update
        as_root apt-get install -y --no-install-recommends "${missing[@]}"
    fi
}

# The newest libclang Debian offers here that parses current CUDA headers
# (22 does; 19 works with a stand-in header, see docs/decisions.md).
libclang_pkg() {
    for v in 22 21 20 19; do
        if pkg_installed "libclang-$v-dev"; then echo "libclang-$v-dev"; return; fi
    done
    for v in 22 21 20 19; do
        if apt-cache show "libclang-$v-dev" >/dev/null 2>&1; then echo "libclang-$v-dev"; return; fi
    done
    echo libclang-19-dev
}

deps() {
    command -v dpkg-query >/dev/null || { log "not a Debian system: install the packages in docs/decisions.md by hand"; exit 2; }
    apt_install build-essential cmake pkg-config libtree-sitter-dev libcmocka-dev libjansson-dev \
        libyaml-dev libxxhash-dev pre-commit python3 git file "$(libclang_pkg)"
    if ! command -v npm >/dev/null 2>&1; then apt_install nodejs npm; fi
    # Robustness tools (docs/robustness.md): valgrind for the memcheck test,
    # clang 19 with libFuzzer for the fuzz step. Optional: without them
    # those steps say they were skipped.
    apt_try valgrind clang-19 libclang-rt-19-dev
    npm_ci third_party/tree-sitter-python node_modules/tree-sitter-python/src/parser.c \
        "the pinned tree-sitter-python grammar"
    npm_ci tools/sarif node_modules/@microsoft/sarif-multitool/package.json \
        "the pinned SARIF validators (Microsoft SARIF Multitool, Ajv)"
    # --ignore-scripts skips the multitool's postinstall, which only does this.
    local mt=tools/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
    if [ -f "$mt" ] && [ ! -x "$mt" ]; then chmod u+x "$mt"; fi
}

# apt_try PKG...: install the packages this Debian release has; never fails.
apt_try() {
    local have=()
    for p in "$@"; do
        pkg_installed "$p" || ! apt-cache show "$p" >/dev/null 2>&1 || have+=("$p")
    done
    [ ${#have[@]} -eq 0 ] || apt_install "${have[@]}" || log "could not install ${have[*]}; those steps will be skipped"
}

# npm_ci DIR FILE WHAT: npm ci --ignore-scripts in DIR when FILE (under DIR)
# is missing or the lockfile changed since the last install.
npm_ci() {
    local dir=$1 probe=$2 what=$3
    local stamp=$dir/node_modules/.kcheck-stamp
    if [ ! -f "$dir/$probe" ] || [ ! -f "$stamp" ] || [ "$dir/package-lock.json" -nt "$stamp" ]; then
        log "fetching $what (npm ci --ignore-scripts)"
        (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
        touch "$stamp"
    fi
}

build_dir() { # dir, extra cmake args...
    local dir=$1; shift
    cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
    cmake --build "$dir" -j "$JOBS"
}

case "${1:-}" in
deps)
    deps ;;
build)
    deps; build_dir build ;;
demo)
    deps
    build_dir build
    log "kcheck examples/"
    set +e
    ./build/kcheck examples/
    rc=$?
    set -e
    # 1 means findings, which the examples are there to show.
    [ $rc -le 1 ] || exit $rc ;;
test)
    deps
    build_dir build
    # Results the tests cache stay in the build tree, not in ~/.cache.
    (cd build && KCHECK_CACHE_DIR="$ROOT/build/kcheck-cache" ctest --output-on-failure -j "$JOBS")
    log "again under AddressSanitizer and UndefinedBehaviorSanitizer"
    build_dir build-asan -DKCHECK_SANITIZE=ON
    # detect_stack_use_after_return: locals in fake heap frames, as clang's
    # ASan has them by default (a stack budget that compared addresses of
    # locals once made the Triton front end lower nothing there).
    # use_sigaltstack=0: libclang, loaded from kcheck-cuda.so after the
    # threads start, replaces their alternate signal stacks, which ASan then
    # fails to unmap at thread exit.
    # intercept_tls_get_addr=0: GCC 12's runtime takes a dynamic TLS block
    # (libclang's) that lands at a certain page offset for a pre-2.25 glibc
    # header and reads past it; LeakSanitizer's tracer then dies with
    # "Tracer caught signal 11" now and then, on a run with no leak (seen
    # once in CI, in cli.batches; fixed in the runtime after GCC 13).
    # Not again here: what runs no kcheck code of this build (nvcc compiling
    # the .fixed fixtures, the layering check of the sources) or repeats the
    # first pass's packaging and the pre-commit hook's own build of kcheck in
    # a clone (about 150 s of the CI budget), and cli.batches, a property of
    # the findings (the same for any batching) that reruns every fixture
    # the fixture tests already run here (116 s sanitized).
    # cuda.header_cache runs kcheck over its inputs three times: here on
    # the examples and three fixture folders.
    (cd build-asan && KCHECK_CACHE_DIR="$ROOT/build-asan/kcheck-cache" \
        KCHECK_HEADER_CACHE_INPUTS="examples tests/fixtures/seeds tests/fixtures/KC002_incomplete-analysis tests/fixtures/KC101_uncoalesced-access" \
        KCHECK_HEADER_CACHE_FEW=examples/cuda \
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=1:use_sigaltstack=0:intercept_tls_get_addr=0 \
        LSAN_OPTIONS=suppressions="$ROOT/tests/lsan.supp":print_suppressions=0 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --output-on-failure -j "$JOBS" -E '^(cuda\.fixed_fixtures_compile|arch\.layers|install\.package|precommit\.hook_builds|cli\.batches)$')
    log "fuzzing: each libFuzzer harness for ${KCHECK_FUZZ_SECONDS:-10} s from its seed corpus (scripts/fuzz.sh)"
    FUZZ_BUILD=build-fuzz scripts/fuzz.sh "${KCHECK_FUZZ_SECONDS:-10}" ;;
*)
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2 ;;
esac
