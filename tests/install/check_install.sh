#!/bin/sh
# `cmake --install` puts the binary, the man page, the rule docs and the
# reference kernels where they belong, and the installed binary runs.
#   check_install.sh BUILD_DIR PREFIX
set -eu
build=$1
prefix=$2
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/kcheck share/man/man1/kcheck.1 share/doc/kcheck/rules.md share/doc/kcheck/ci.md \
    share/doc/kcheck/rules/KC101-uncoalesced-access.md share/kcheck/reference/ops/axpy.json; do
    [ -e "$prefix/$f" ] || { echo "not installed: $f" >&2; exit 1; }
done
"$prefix/bin/kcheck" --version
"$prefix/bin/kcheck" --explain KC101 | grep -q '## What it does'
echo "installed layout is complete"
