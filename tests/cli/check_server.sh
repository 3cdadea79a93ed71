#!/bin/sh
# kcheck --server and `kcheck server`, with the real binary: a run through
# the server prints what a run in process prints, with the same exit
# status, in the caller's directory, environment and umask; the first run
# starts the server without holding the caller's output open; a killed
# server, a directory others can enter and a socket path that is too long
# all fall back to checking in process. The server runs in the foreground
# for part of the test so that its own messages (sanitizer reports
# included, in the ASan build) are seen.
#   check_server.sh KCHECK SOURCE_DIR WORK_DIR
set -u
kcheck=$1
src=$2
work=$3
rm -rf "$work"
mkdir -p "$work"
fails=0
fail() {
    echo "FAIL: $*" >&2
    fails=$((fails + 1))
}
# Short, private: a socket path must fit in 108 bytes.
sdir=$(mktemp -d /tmp/kcheck-server-test-XXXXXX)
chmod 700 "$sdir"
export KCHECK_SERVER_DIR="$sdir" KCHECK_SERVER_IDLE=120 KCHECK_CACHE_DIR="$work/cache"
cleanup() {
    "$kcheck" server stop >/dev/null 2>&1
    rm -rf "$sdir"
}
trap cleanup EXIT

wait_up() {
    i=0
    while ! "$kcheck" server status >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -gt 200 ] && return 1
        sleep 0.05
    done
}
served() { "$kcheck" server status | sed -n 's/.* \([0-9]*\) checks* served.*/\1/p'; }

# Same stdout, stderr and exit status with and without --server.
same() { # name, kcheck arguments...
    name=$1
    shift
    "$kcheck" "$@" >"$work/$name.local.out" 2>"$work/$name.local.err"
    lrc=$?
    "$kcheck" --server "$@" >"$work/$name.server.out" 2>"$work/$name.server.err"
    src_rc=$?
    [ "$lrc" = "$src_rc" ] || fail "$name: exit status $src_rc through the server, $lrc in process"
    cmp -s "$work/$name.local.out" "$work/$name.server.out" || fail "$name: stdout differs through the server"
    cmp -s "$work/$name.local.err" "$work/$name.server.err" || fail "$name: stderr differs through the server"
}

"$kcheck" server status >/dev/null && fail "a server runs before the test"

# The first run checks in process and starts the server; its output pipe
# closes when kcheck exits (a hook runner reading it to the end must not
# wait for the server).
first=$(timeout 30 "$kcheck" --server --no-cache "$src/tests/fixtures/seeds" 2>&1)
rc=$?
[ $rc -eq 124 ] && fail "the first --server run did not return: the server holds its output open"
case "$first" in *"kcheck: "*errors*) ;; *) fail "the first --server run printed no summary: $first" ;; esac
wait_up || fail "the server did not start"
n0=$(served)

same seeds --no-cache "$src/tests/fixtures/seeds"
same seeds-json --no-cache --format json "$src/tests/fixtures/seeds"
same sarif --no-cache --format sarif "$src/examples"
same cuda --no-cache --severity note "$src/examples/cuda"
same missing --no-cache "$work/no-such-file.cu"
same usage --no-such-option
same list --list-rules
same clean --no-cache "$src/tests/fixtures/tutorials"
n1=$(served)
[ "$n1" -ge $((n0 + 8)) ] || fail "the server served $((n1 - n0)) of the 8 checks"

# The caller's working directory: relative paths.
(cd "$src/tests/fixtures" && same relative --no-cache seeds)

# The caller's environment and umask: the result cache goes where the
# caller's KCHECK_CACHE_DIR says, created with the caller's umask.
(umask 077 && KCHECK_CACHE_DIR="$work/cache-077" "$kcheck" --server "$src/tests/fixtures/seeds" >/dev/null 2>&1)
[ -d "$work/cache-077" ] || fail "the server did not use the caller's KCHECK_CACHE_DIR"
mode=$(stat -c %a "$work/cache-077" 2>/dev/null)
[ "$mode" = 700 ] || fail "the cache directory has mode $mode, not 700 (the caller's umask 077)"

# A killed server: the next run checks in process (and starts another).
pid=$("$kcheck" server status | sed -n 's/.*pid \([0-9]*\),.*/\1/p')
kill -9 "$pid" 2>/dev/null
sleep 0.2
same after-kill --no-cache "$src/tests/fixtures/seeds"
wait_up || fail "no new server after the old one was killed"
"$kcheck" server stop | grep -q stopping || fail "server stop did not stop it"
"$kcheck" server status >/dev/null && fail "the server still answers after stop"

# A client interrupted during its check ends the check (and the server),
# as the signal would have ended a check in the client's own process.
printf 'import triton\nimport triton.language as tl\n\n' >"$work/big.py"
printf '@triton.jit\ndef k(x_ptr, n, B: tl.constexpr):\n    o = tl.program_id(0) * B + tl.arange(0, B)\n    tl.store(x_ptr + o, tl.load(x_ptr + o, mask=o < n), mask=o < n)\n\n' >"$work/unit.py"
i=0
while [ $i -lt 15 ]; do cat "$work/unit.py" "$work/unit.py" >"$work/unit2.py" && mv "$work/unit2.py" "$work/unit.py"; i=$((i + 1)); done
cat "$work/unit.py" >>"$work/big.py"
"$kcheck" server start >/dev/null || fail "server start"
wait_up || fail "server start did not listen"
spid=$("$kcheck" server status | sed -n 's/.*pid \([0-9]*\),.*/\1/p')
"$kcheck" --server --no-cache "$work/big.py" >/dev/null 2>&1 &
client=$!
sleep 0.5
kill "$client"
wait "$client" 2>/dev/null
i=0
while "$kcheck" server status >/dev/null 2>&1 && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
"$kcheck" server status >/dev/null && fail "the server went on checking for an interrupted client"
# Gone, not only silent: its lock is free for the next server.
i=0
while kill -0 "$spid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
kill -0 "$spid" 2>/dev/null && fail "the server of the interrupted client did not exit"

# A server killed in the middle of a check, after it wrote the first
# file's findings: the client checks in process and prints them once.
"$kcheck" server start >/dev/null || fail "server start"
wait_up || fail "server start did not listen"
spid=$("$kcheck" server status | sed -n 's/.*pid \([0-9]*\),.*/\1/p')
# 60 findings first: more output than a stdio buffer holds, so some of it
# has left the server when it dies
printf 'import triton\nimport triton.language as tl\n' >"$work/many.py"
i=0
while [ $i -lt 60 ]; do
    printf '@triton.jit\ndef k%d(x_ptr, N, B: tl.constexpr):\n    for s in tl.static_range(0, N, B):\n        tl.store(x_ptr + s + tl.arange(0, B), 0, mask=s + tl.arange(0, B) < N)\n' $i >>"$work/many.py"
    i=$((i + 1))
done
"$kcheck" --server --no-cache -j 1 "$work/many.py" "$work/big.py" >"$work/mid.out" 2>"$work/mid.err" &
client=$!
sleep 0.5
kill -9 "$spid"
wait "$client"
n=$(grep -c 'many.py:5:[0-9]*: error' "$work/mid.out")
[ "$n" = 1 ] || fail "a server killed mid-check: the first file's first finding printed $n times"
grep -q 'stopped before answering; checking in this process' "$work/mid.err" ||
    fail "a server killed mid-check: the client did not say it checked in process"
"$kcheck" server stop >/dev/null 2>&1
i=0
while "$kcheck" server status >/dev/null 2>&1 && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done

# One client does not hold the others: while the server runs a long
# check, another client waits a bounded time for it, then checks in its
# own process (same output); and a client that sends its request a byte
# at a time is cut off at the request deadline, so the next one is served.
KCHECK_SERVER_RECV_S=1 "$kcheck" server start >/dev/null || fail "server start"
wait_up || fail "server start did not listen"
"$kcheck" --server --no-cache -j 1 "$work/big.py" >/dev/null 2>&1 &
long=$!
sleep 0.3
small="$src/tests/fixtures/KC202_static-range-runtime-bound/bad_runtime_arg.py"
"$kcheck" --no-cache "$small" >"$work/busy.local.out" 2>/dev/null
KCHECK_SERVER_WAIT_MS=300 "$kcheck" --server --no-cache "$small" >"$work/busy.out" 2>"$work/busy.err"
grep -q 'the kcheck server is busy with another check' "$work/busy.err" ||
    fail "a client behind a long check did not fall back (stderr: $(cat "$work/busy.err"))"
cmp -s "$work/busy.local.out" "$work/busy.out" || fail "a client behind a long check: output differs"
kill -0 "$long" 2>/dev/null || fail "the long check ended before the second client (the test proves nothing)"
wait "$long"
sock=$("$kcheck" server status | sed -n 's/^socket: //p')
python3 - "$sock" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
for _ in range(20):          # 8 bytes of a length, one every 0.25 s: 5 s
    try:
        s.send(b"\x01")
    except OSError:
        break
    time.sleep(0.25)
PY
drip=$!
sleep 0.2
KCHECK_SERVER_WAIT_MS=2500 "$kcheck" --server --no-cache "$small" >"$work/drip.out" 2>"$work/drip.err"
if grep -q 'busy' "$work/drip.err"; then fail "a client that drips its request held the server"; fi
cmp -s "$work/busy.local.out" "$work/drip.out" || fail "the client after a dripping one: output differs"
kill "$drip" 2>/dev/null
wait "$drip" 2>/dev/null
"$kcheck" server stop >/dev/null 2>&1
i=0
while "$kcheck" server status >/dev/null 2>&1 && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done

# A file given up over --file-timeout: the same output and status through
# the server, which then ends (its worker thread is still busy with the
# file); the next run starts a new server.
i=0
while [ $i -lt 10000 ]; do echo "int x;"; i=$((i + 1)); done >"$work/slow.cu"
"$kcheck" server start >/dev/null || fail "server start"
wait_up || fail "server start did not listen"
same timeout --no-cache --file-timeout=5 "$work/slow.cu" "$small"
grep -q "slow.cu: error: not checked: given up after 5 s" "$work/timeout.server.out" ||
    fail "the slow file was not given up through the server: $(cat "$work/timeout.server.out")"
i=0
while "$kcheck" server status >/dev/null 2>&1 && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
"$kcheck" server status >/dev/null 2>&1 && fail "the server kept running with a stranded check"
"$kcheck" server start >/dev/null || fail "server start after a stranded check"
same after-timeout --no-cache "$small"
"$kcheck" server stop >/dev/null 2>&1
i=0
while "$kcheck" server status >/dev/null 2>&1 && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done

# In the foreground: what it prints, nothing else (no sanitizer report).
# The lock is still held, with the socket gone, as by a server on its way
# out: the new server waits for it rather than say "already running".
lock=$(ls "$sdir"/*.lock | head -n 1)
flock "$lock" sleep 1 &
holder=$!
sleep 0.2
"$kcheck" server run >"$work/run.out" 2>"$work/run.err" &
bg=$!
wait "$holder"
wait_up || fail "server run did not listen"
same foreground --no-cache "$src/tests/fixtures/seeds"
"$kcheck" server start >"$work/start.out" 2>&1 || fail "server start with a server running"
grep -q "1 check served" "$work/start.out" || fail "server start did not report the running server: $(cat "$work/start.out")"
"$kcheck" server run >"$work/run2.out" 2>&1 || fail "a second server run failed"
grep -q "already running" "$work/run2.out" || fail "a second server did not see the first"
"$kcheck" server stop >/dev/null
wait $bg || fail "server run exited with $?"
grep -q "listening on $sdir/" "$work/run.out" || fail "server run said: $(cat "$work/run.out")"
[ -s "$work/run.err" ] && fail "server run wrote to stderr: $(cat "$work/run.err")"
ls "$sdir"/*.sock >/dev/null 2>&1 && fail "the socket is left behind"

# A directory others can enter is refused, and the check runs here.
chmod 755 "$sdir"
"$kcheck" --server --no-cache "$src/tests/fixtures/seeds" >"$work/open.out" 2>"$work/open.err"
[ $? -eq 1 ] || fail "a run with an open server directory did not report the seeds' findings"
grep -q "is not private to this user" "$work/open.err" || fail "no word about the open directory"
cmp -s "$work/open.out" "$work/seeds.local.out" || fail "the fallback run's output differs"
chmod 700 "$sdir"

# A socket path longer than a Unix socket takes.
long="$sdir/$(printf '%0120d' 0)"
KCHECK_SERVER_DIR="$long" "$kcheck" --server --no-cache "$src/tests/fixtures/seeds" >/dev/null 2>"$work/long.err"
[ $? -eq 1 ] || fail "a run with a long socket path did not check"
grep -q "too long" "$work/long.err" || fail "no word about the socket path: $(cat "$work/long.err")"

# Idle: a server with a one-second limit goes away by itself.
KCHECK_SERVER_IDLE=1 "$kcheck" server start >/dev/null || fail "server start"
sleep 2.5
"$kcheck" server status >/dev/null && fail "an idle server did not exit"

if [ "$fails" -eq 0 ]; then
    echo "kcheck --server: same output, status and environment as in process; fallbacks work"
fi
exit "$fails"
