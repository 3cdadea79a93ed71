#!/bin/sh
# The `kcheck` pre-commit hook as a user meets it: a scratch repository
# with nothing but a .pre-commit-config.yaml that names this project at a
# commit (`rev`), and no kcheck on PATH. `pre-commit run --all-files`
# clones the project, the hook builds kcheck in the clone on first use,
# and the findings equal those of `kcheck` run on the same files; a second
# run reuses the build.
#   check_hook_script.sh KCHECK SOURCE_DIR WORK_DIR
set -eu
kcheck=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work/project" "$work/repo"
# The project at a commit: the working tree (tracked and untracked files
# git does not ignore) committed in a scratch repository, with the pinned
# grammar's sources (npm ci's output, ignored in the project) so that the
# hook's build needs no network.
(cd "$src" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | (cd "$work/project" && tar -xf -)
g=third_party/tree-sitter-python/node_modules
mkdir -p "$work/project/$g"
cp -r "$src/$g/tree-sitter-python" "$work/project/$g/"
cd "$work/project"
git init -q .
git add -A .
git add -f "$g"
git -c user.name=k -c user.email=k@k commit -qm snapshot
rev=$(git rev-parse HEAD)

cd "$work/repo"
git init -q .
cp "$src/tests/fixtures/KC202_static-range-runtime-bound/bad_runtime_arg.py" k.py
cp "$src/tests/fixtures/KC201_large-static-unroll/bad_pragma_unroll.cu" k.cuh
f=$src/tests/fixtures/KC304_int32-offset-overflow
cp "$f/bad_row_kernel_launched_elsewhere.py" "$f/ok_launcher_of_row_kernel.py" .
cp "$src/tests/fixtures/KC402_shared-memory-race/"bad_*.cu . 2>/dev/null || true
printf 'not a kernel\n' > notes.txt
cat > .pre-commit-config.yaml <<CFG
repos:
  - repo: $work/project
    rev: $rev
    hooks:
      - id: kcheck
        args: [--no-cache, --format, concise, --end-of-options]
CFG
git add -A .

# no kcheck on PATH: only what a Debian machine has
clean_path=$(printf '%s' "$PATH" | tr ':' '\n' | grep -v -x "$(dirname "$kcheck")" | paste -sd: -)
run() {
    status=0
    PATH="$clean_path" PRE_COMMIT_HOME="$work/cache" pre-commit run --all-files > "$work/$1" 2>&1 || status=$?
    cat "$work/$1"
    [ "$status" -eq 1 ] || { echo "expected the hook to fail on the findings (status $status)" >&2; exit 1; }
}
run first.txt
grep -q 'building kcheck for pre-commit' "$work/first.txt" || { echo "the first run did not build kcheck" >&2; exit 1; }
run second.txt
if grep -q 'building kcheck for pre-commit' "$work/second.txt"; then echo "the second run built again" >&2; exit 1; fi

# the same findings as kcheck on the same files
"$kcheck" --no-config --no-cache --format concise --end-of-options $(git ls-files | grep -E '\.(cu|cuh|py)$') \
    > "$work/direct.txt" 2>&1 || true
grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning|note):' "$work/direct.txt" | sort > "$work/want.txt"
grep -E '^[^ ]+:[0-9]+:[0-9]+: (error|warning|note):' "$work/second.txt" | sort > "$work/got.txt"
[ -s "$work/want.txt" ] || { echo "kcheck found nothing to compare" >&2; exit 1; }
if ! cmp -s "$work/want.txt" "$work/got.txt"; then
    echo "pre-commit and kcheck differ:" >&2
    diff "$work/want.txt" "$work/got.txt" >&2 || true
    exit 1
fi
echo "the pre-commit hook built kcheck from rev $rev and found what kcheck finds ($(wc -l < "$work/want.txt") findings)"
