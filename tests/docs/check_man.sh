#!/bin/sh
# Every long option of `kcheck --help` is documented in the man page, and
# the page renders without groff warnings.
#   check_man.sh KCHECK MANPAGE
set -eu
kcheck=$1
page=$2
text=$(sed 's/\\-/-/g' "$page")
missing=0
for opt in $("$kcheck" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    case "$text" in
    *"$opt"*) ;;
    *) echo "kcheck.1 does not document $opt" >&2; missing=$((missing + 1)) ;;
    esac
done
if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -ww -z "$page" 2>&1 || true)
    if [ -n "$warnings" ]; then
        echo "$warnings" >&2
        missing=$((missing + 1))
    fi
fi
[ "$missing" -eq 0 ] && echo "kcheck.1 documents every option of --help"
exit "$missing"
