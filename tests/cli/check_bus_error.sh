#!/bin/sh
# SIGBUS (a mapped file truncated by another process while kcheck reads
# it: a precompiled header of the shared header cache) ends kcheck with a
# clear error and exit status 2, not a crash (135). The signal is sent to
# a `kcheck lsp` waiting on its input, which stands for a check that is
# inside libclang when the truncation happens.
#   check_bus_error.sh KCHECK WORK_DIR
set -u
kcheck=$1 work=$2
rm -rf "$work"
mkdir -p "$work"
mkfifo "$work/in"
# Under ASan its runtime catches SIGBUS from before main: the wait below
# would see that handler, not kcheck's, and the signal would reach ASan
# while it is still starting (a crash, 134; seen on a loaded 2-core
# machine). Leave SIGBUS to kcheck.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_sigbus=0"
export ASAN_OPTIONS
"$kcheck" lsp < "$work/in" > "$work/out" 2> "$work/err" &
pid=$!
exec 3> "$work/in" # keep the server's input open
# wait until the process catches SIGBUS (bit 7 of SigCgt), at most 20 s
i=0
while [ $i -lt 200 ]; do
    cgt=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null)
    [ -n "$cgt" ] && [ $(( 0x$cgt & 0x40 )) -ne 0 ] && break
    sleep 0.1
    i=$((i + 1))
done
kill -BUS "$pid"
wait "$pid"
rc=$?
exec 3>&-
if [ "$rc" -ne 2 ]; then
    echo "FAILED: exit status $rc after SIGBUS, expected 2"
    cat "$work/err"
    exit 1
fi
grep -q "was truncated while in use" "$work/err" || {
    echo "FAILED: no message on stderr after SIGBUS:"
    cat "$work/err"
    exit 1
}
echo "ok: SIGBUS gives exit status 2 and: $(cat "$work/err")"
