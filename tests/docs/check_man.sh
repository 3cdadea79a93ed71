#!/bin/sh
# Every long option of `kcheck --help` and, given OPTIONS_TABLE
# (src/cli/cli_options.def), every long name and short letter of the table,
# those --help does not list too, is documented in the man page, and the
# page renders without groff warnings.
#   check_man.sh KCHECK MANPAGE [OPTIONS_TABLE]
set -eu
kcheck=$1
page=$2
table=${3:-}
text=$(sed 's/\\-/-/g' "$page")
missing=0
longs=$("$kcheck" --help | grep -o -- '--[a-z][a-z-]*' | sort -u)
shorts=
if [ -n "$table" ]; then
    # KC_CLI_OPTION(handler, "long" or NULL, 'x' or 0, ...
    tlongs=$(sed -n 's/^KC_CLI_OPTION([a-z_]*, *"\([a-z-]*\)".*/--\1/p' "$table")
    shorts=$(sed -n "s/^KC_CLI_OPTION([a-z_]*, *[^,]*, *'\\(.\\)'.*/-\\1/p" "$table")
    if [ -z "$tlongs" ] || [ -z "$shorts" ]; then
        echo "no options read from $table" >&2
        exit 1
    fi
    longs=$(printf '%s\n%s\n' "$longs" "$tlongs" | sort -u)
fi
for opt in $longs; do
    case "$text" in
    *"$opt"*) ;;
    *) echo "kcheck.1 does not document $opt" >&2; missing=$((missing + 1)) ;;
    esac
done
for opt in $shorts; do
    # -q on its own, not the middle of --quiet
    if ! printf '%s\n' "$text" | grep -Eq -- "(^|[^[:alnum:]-])$opt([^[:alnum:]-]|\$)"; then
        echo "kcheck.1 does not document $opt" >&2
        missing=$((missing + 1))
    fi
done
if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -ww -z "$page" 2>&1 || true)
    if [ -n "$warnings" ]; then
        echo "$warnings" >&2
        missing=$((missing + 1))
    fi
fi
[ "$missing" -eq 0 ] && echo "kcheck.1 documents every option of --help${table:+ and of the option table}"
exit "$missing"
