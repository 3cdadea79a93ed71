#!/usr/bin/env python3
"""A scripted Language Server Protocol client for `kcheck lsp`.

check_lsp.py KCHECK WORKDIR

Runs one session: a request before initialize (refused), initialize,
didOpen of a Triton file with a finding (a KC303 unmasked load after a
non-ASCII name, with a character outside the BMP after it, so that UTF-16
columns are exercised), hover over the finding and elsewhere, codeAction
(the fix-it), didChange with the fixed text (the finding goes), an
incremental didChange that brings it back, didOpen of a CUDA file with a
KC402 race and a change that adds the barrier, didClose, an unsupported
request, shutdown, exit. Every step asserts what the server sent; exit
status 0 when all held.
"""
import json
import os
import subprocess
import sys
import time

KCHECK, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)

PY = (
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "\n"
    "@triton.jit\n"
    "def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    vé = tl.load(x_ptr + offs)  # 𝄞\n"
    "    tl.store(y_ptr + offs, vé * 2, mask=offs < n)\n"
    "\n"
    "\n"
    "def run(x, y):\n"
    "    n = x.numel()\n"
    "    scale[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)\n"
)
CU = (
    "__global__ void rev(float *out, const float *in)\n"
    "{\n"
    "    __shared__ float t[256];\n"
    "    t[threadIdx.x] = in[threadIdx.x];\n"
    "    out[threadIdx.x] = t[255 - threadIdx.x];\n"
    "}\n"
)

py_path = os.path.join(WORK, "scale é.py")
cu_path = os.path.join(WORK, "rev.cu")
for p, t in ((py_path, PY), (cu_path, CU)):
    with open(p, "w", encoding="utf-8") as f:
        f.write(t)


def uri(p):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(p))


proc = subprocess.Popen([KCHECK, "lsp", "--no-config"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE)
next_id = [0]


def send(obj):
    body = json.dumps(obj).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def recv():
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            raise SystemExit("check_lsp: the server closed its output (stderr: %s)" % proc.stderr.read().decode())
        if line in (b"\r\n", b"\n"):
            break
        k, _, v = line.decode().partition(":")
        if k.lower() == "content-length":
            length = int(v)
    return json.loads(proc.stdout.read(length))


def request(method, params):
    next_id[0] += 1
    send({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params})
    while True:
        m = recv()
        if m.get("id") == next_id[0]:
            return m


def notify(method, params):
    send({"jsonrpc": "2.0", "method": method, "params": params})


def published(u):
    while True:
        m = recv()
        if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == u:
            return m["params"]


def check(cond, what):
    if not cond:
        proc.kill()
        raise SystemExit("check_lsp: FAILED: " + what)
    print("ok:", what)


r = request("hover", {})
check(r.get("error", {}).get("code") == -32002, "a request before initialize is refused")
r = request("initialize", {"processId": os.getpid(), "rootUri": uri(WORK), "capabilities": {}})
caps = r["result"]["capabilities"]
check(caps["textDocumentSync"]["change"] == 1 and caps["hoverProvider"] and caps["codeActionProvider"],
      "initialize answers full sync, hover and code actions")
notify("initialized", {})

pu = uri(py_path)
notify("textDocument/didOpen", {"textDocument": {"uri": pu, "languageId": "python", "version": 1, "text": PY}})
p = published(pu)
kc303 = [d for d in p["diagnostics"] if d["code"] == "KC303"]
check(p["version"] == 1 and len(kc303) == 1, "didOpen publishes the KC303 finding of the unmasked load")
d = kc303[0]
check(d["range"]["start"] == {"line": 7, "character": 17} and d["severity"] == 2 and d["source"] == "kcheck",
      "its range is 0-based in UTF-16 units (line 8, byte column 19 after `vé` -> 7:17) and it is a warning")
check("not bounds-checked" in d["message"] and "\nnote:" in d["message"], "the message carries the notes")

h = request("textDocument/hover", {"textDocument": {"uri": pu}, "position": {"line": 7, "character": 20}})
check(h["result"] and "KC303" in h["result"]["contents"]["value"] and
      "## What it does" in h["result"]["contents"]["value"], "hover over the finding shows the rule's documentation")
h = request("textDocument/hover", {"textDocument": {"uri": pu}, "position": {"line": 0, "character": 0}})
check(h["result"] is None, "hover elsewhere shows nothing")

a = request("textDocument/codeAction", {"textDocument": {"uri": pu}, "range": d["range"],
                                        "context": {"diagnostics": [d]}})
acts = [x for x in a["result"] if x["title"].startswith("KC303")]
check(len(acts) == 1 and acts[0]["kind"] == "quickfix", "codeAction offers the KC303 fix-it")
edits = acts[0]["edit"]["changes"][pu]


def apply(text, edits):
    lines = text.split("\n")

    def off(pos):
        line = lines[pos["line"]]
        units = 0
        i = 0
        while i < len(line) and units < pos["character"]:
            units += 2 if ord(line[i]) > 0xFFFF else 1
            i += 1
        return sum(len(x) + 1 for x in lines[:pos["line"]]) + i

    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]),
                    reverse=True):
        a, b = off(e["range"]["start"]), off(e["range"]["end"])
        text = text[:a] + e["newText"] + text[b:]
    return text


fixed = apply(PY, edits)
check("mask=" in fixed.split("\n")[7], "the fix-it adds a mask to the load")
notify("textDocument/didChange", {"textDocument": {"uri": pu, "version": 2}, "contentChanges": [{"text": fixed}]})
p = published(pu)
check(p["version"] == 2 and not [x for x in p["diagnostics"] if x["code"] == "KC303"],
      "didChange with the fixed text clears the finding")

# an incremental change: put the unmasked load back on line 8
line8 = fixed.split("\n")[7]
notify("textDocument/didChange", {"textDocument": {"uri": pu, "version": 3}, "contentChanges": [
    {"range": {"start": {"line": 7, "character": 0}, "end": {"line": 7, "character": len(line8)}},
     "text": "    vé = tl.load(x_ptr + offs)"}]})
p = published(pu)
check(p["version"] == 3 and len([x for x in p["diagnostics"] if x["code"] == "KC303"]) == 1,
      "an incremental didChange is applied and re-checked")

cuu = uri(cu_path)
notify("textDocument/didOpen", {"textDocument": {"uri": cuu, "languageId": "cuda", "version": 1, "text": CU}})
p = published(cuu)
check([x for x in p["diagnostics"] if x["code"] == "KC402"], "a CUDA document gets its KC402 race")
t0 = time.perf_counter()
notify("textDocument/didChange", {"textDocument": {"uri": cuu, "version": 2}, "contentChanges": [
    {"text": CU.replace("    out[", "    __syncthreads();\n    out[")}]})
p = published(cuu)
check(not [x for x in p["diagnostics"] if x["code"] == "KC402"], "adding the barrier clears it (%.0f ms)"
      % ((time.perf_counter() - t0) * 1000))

notify("textDocument/didClose", {"textDocument": {"uri": cuu}})
p = published(cuu)
check(p["diagnostics"] == [], "didClose clears the document's findings")

r = request("textDocument/definition", {"textDocument": {"uri": pu}, "position": {"line": 0, "character": 0}})
check(r.get("error", {}).get("code") == -32601, "an unsupported request gets MethodNotFound")
r = request("shutdown", None)
check("result" in r and r["result"] is None, "shutdown answers null")
notify("exit", None)
rc = proc.wait(timeout=30)
check(rc == 0, "exit after shutdown ends the server with status 0")
# A second session, configuration read: a file its `exclude` names gets no findings
ex = os.path.join(WORK, "ex")
os.makedirs(os.path.join(ex, "vendor"), exist_ok=True)
with open(os.path.join(ex, ".kcheck.yaml"), "w") as fh:
    fh.write("exclude: [vendor/]\n")
os.makedirs(os.path.join(ex, ".git"), exist_ok=True)
proc = subprocess.Popen([KCHECK, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
request("initialize", {"capabilities": {}})
for name, want in (("vendor/v.py", 0), ("k.py", 1)):
    u = uri(os.path.join(ex, name))
    notify("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "python", "version": 1, "text": PY}})
    p = published(u)
    n = len([x for x in p["diagnostics"] if x["code"] == "KC303"])
    check(n == want, "with the configuration read, %s has %d KC303 finding(s) (exclude)" % (name, want))
request("shutdown", None)
notify("exit", None)
check(proc.wait(timeout=30) == 0, "the second session ends with status 0")
print("check_lsp: all passed")
