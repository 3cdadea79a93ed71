#!/bin/sh
# kcheck verify stopped by SIGTERM or SIGHUP while its driver runs: the
# driver, a child of it in its group and one that left the group (setsid)
# are all gone when kcheck has ended, the work directory under TMPDIR is
# removed, stderr says so, and kcheck ends by the signal it got (143, 129).
# (SIGINT takes the same path; a shell's background job ignores it, so it
# is not sent from here.)
# Usage: check_interrupt.sh KCHECK SOURCE_DIR
set -u
KCHECK=$1
SRC=$2
T=$(mktemp -d)
trap 'kill -9 $(cat "$T"/*.pid 2>/dev/null) 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "check_interrupt: $*" >&2; [ -f "$T/err" ] && sed 's/^/  stderr: /' "$T/err" >&2; exit 1; }
mkdir -p "$T/tmp" "$T/user"
cat > "$T/user/k.py" <<'PY'
import triton
import triton.language as tl


# kcheck: verify op=scale_rows call="run(x, out)"
@triton.jit
def k(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    for start in tl.static_range(0, M, BLOCK):
        r = start + rows
        v = tl.load(x_ptr + r * N + col, mask=r < M)
        tl.store(out_ptr + r * N + col, 2 * v, mask=r < M)


def run(x, out):
    M, N = x.shape
    k[(N,)](x, out, M, N, BLOCK=128)
PY
cat > "$T/fake.sh" <<FAKE
#!/bin/sh
sleep 300 &
echo \$! > "$T/child.pid"
setsid sh -c 'echo \$\$ > "$T/escaped.pid"; exec sleep 300' &
while [ ! -s "$T/escaped.pid" ]; do sleep 0.01; done
echo \$\$ > "$T/driver.pid"
exec sleep 300
FAKE
chmod +x "$T/fake.sh"

gone() { # PID: not running (or a zombie about to be reaped)
    [ -z "$1" ] && return 0
    kill -0 "$1" 2>/dev/null || return 0
    state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
    [ "$state" = Z ]
}

for sig in TERM HUP; do
    rm -f "$T/child.pid" "$T/escaped.pid" "$T/driver.pid"
    TMPDIR="$T/tmp" "$KCHECK" verify --no-cache --no-source --color=never \
        --reference-dir "$SRC/tests/verify/reference" --python "$T/fake.sh" --timeout 60 \
        "$T/user/k.py" > "$T/out" 2> "$T/err" &
    k=$!
    i=0
    while [ ! -s "$T/driver.pid" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$T/driver.pid" ] || fail "SIG$sig: the fake driver did not start"
    t0=$(date +%s)
    kill -"$sig" "$k"
    wait "$k"
    rc=$?
    t1=$(date +%s)
    [ $((t1 - t0)) -le 10 ] || fail "SIG$sig: kcheck took $((t1 - t0)) s to end"
    case $sig in TERM) want=143 ;; HUP) want=129 ;; esac
    [ "$rc" -eq "$want" ] || fail "SIG$sig: exit status $rc, expected $want"
    grep -q "interrupted (signal" "$T/err" || fail "SIG$sig: stderr does not say it was interrupted"
    for f in driver child escaped; do
        p=$(cat "$T/$f.pid")
        i=0
        while ! gone "$p" && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
        gone "$p" || fail "SIG$sig: the driver's $f process ($p) is still running"
    done
    left=$(ls -A "$T/tmp")
    [ -z "$left" ] || fail "SIG$sig: left behind in TMPDIR: $left"
done
echo "check_interrupt: OK (SIGTERM and SIGHUP: processes gone, work directory removed)"
