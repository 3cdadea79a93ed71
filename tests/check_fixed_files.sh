#!/bin/sh
# Every fixture's FILE.fixed is what `kcheck --fix` makes of FILE (each
# fixture copied alone into a scratch directory, at --severity note, as
# the .fixed files are written): a fix-it that changes, appears or goes
# away fails here until the .fixed file is regenerated and reviewed.
#   check_fixed_files.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 2
fail=0 n=0
for fixed in $(find "$src/tests/fixtures" -name '*.fixed' | sort); do
    orig=${fixed%.fixed}
    n=$((n + 1))
    d="$work/$n" && mkdir -p "$d" && cp "$orig" "$d/" || exit 2
    copy="$d/$(basename "$orig")"
    "$kcheck" --no-config --no-cache --severity note --fix "$copy" >/dev/null 2>&1
    if ! cmp -s "$copy" "$fixed"; then
        echo "FAIL: ${fixed#$src/} differs from kcheck --fix:"
        diff -u "$fixed" "$copy" | head -20
        fail=1
    fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no .fixed files found"; exit 1; }
[ $fail = 0 ] && echo "ok: $n .fixed files match kcheck --fix"
exit $fail
