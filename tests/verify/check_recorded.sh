#!/bin/sh
# Replays the verify results recorded on a GPU (tests/verify/recorded, from
# the run in docs/verify-results.md) through `kcheck verify --results` and
# compares the verdicts with the expected ones: how measurements become
# verdicts is tested in CI, without a GPU.
#   check_recorded.sh KCHECK SOURCE_DIR OUT_FILE
set -eu
kcheck=$1
cd "$2"
"$kcheck" verify --results tests/verify/recorded --severity note --no-source --color=never examples tests/fixtures 2>/dev/null |
    awk '/^[^ ].*:[0-9]+:1: (note|error): verify op=/ { print; next }
         /^[^ ].*: (note|warning|error): /{ loc = $1 }
         /= verify: / && !/no `kcheck: verify/ { sub(/^ *= verify: /, ""); print loc " " $0 }' > "$3" || true
if ! diff -u tests/verify/recorded/expected-verdicts.txt "$3"; then
    echo "verdicts differ from tests/verify/recorded/expected-verdicts.txt" >&2
    exit 1
fi
echo "$(wc -l < "$3") verdicts match"
