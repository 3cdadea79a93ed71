#!/bin/sh
# The `kcheck` pre-commit hook (.pre-commit-hooks.yaml, language: script).
# pre-commit runs it from its own clone of the kcheck repository at the
# `rev` the user's .pre-commit-config.yaml names. On first use it builds
# kcheck there (build-hook/, about a minute), then every run reuses that
# build: nothing is installed by hand, nothing outside the clone is
# written. The build needs what `./build.sh build` needs (Debian: cmake,
# a C compiler, pkg-config, libclang-dev, libtree-sitter-dev,
# libjansson-dev, libyaml-dev, libxxhash-dev, and npm for the pinned
# Python grammar); where they are missing it says so and fails. With
# kcheck installed, use the `kcheck-system` hook instead.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
build=$here/build-hook
kcheck=$build/kcheck

say() { echo "kcheck pre-commit hook: $*" >&2; }

build_it() {
    missing=
    for t in cmake cc pkg-config npm; do
        command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
    done
    for m in tree-sitter jansson yaml-0.1 libxxhash; do
        command -v pkg-config >/dev/null 2>&1 && ! pkg-config --exists "$m" 2>/dev/null && missing="$missing $m(pkg-config)"
    done
    if [ -n "$missing" ]; then
        say "cannot build kcheck: missing$missing"
        say "on Debian: sudo apt-get install build-essential cmake pkg-config libclang-dev libtree-sitter-dev libjansson-dev libyaml-dev libxxhash-dev nodejs npm"
        say "or install kcheck (README, Install) and use the kcheck-system hook"
        exit 2
    fi
    grammar=$here/third_party/tree-sitter-python
    if [ ! -f "$grammar/node_modules/tree-sitter-python/src/parser.c" ]; then
        say "fetching the pinned tree-sitter-python grammar (npm ci)"
        (cd "$grammar" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
    fi
    say "building kcheck for pre-commit in $build (first use only)"
    jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
    cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKCHECK_TESTS=OFF -DKCHECK_WERROR=OFF >&2
    cmake --build "$build" -j "$jobs" --target kcheck kcheck_cuda >&2
    [ -x "$kcheck" ] || { say "the build made no kcheck"; exit 2; }
}

if [ ! -x "$kcheck" ] || [ ! -f "$build/.complete" ]; then
    # One build at a time (pre-commit may start several hooks at once).
    mkdir -p "$build"
    if command -v flock >/dev/null 2>&1; then
        exec 9>"$build/.lock"
        flock 9
    fi
    if [ ! -f "$build/.complete" ]; then
        build_it
        : > "$build/.complete"
    fi
fi
exec "$kcheck" "$@"
