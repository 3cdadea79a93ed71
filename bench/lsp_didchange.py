#!/usr/bin/env python3
"""Latency of `kcheck lsp` re-checking an edited file.

lsp_didchange.py [--kcheck PATH] [-n N] [--toolkit] [--clang-tidy BIN] FILE...

For each FILE: starts `kcheck lsp --no-cache --no-config`, opens the file
(its first check, not timed), then sends N didChange notifications, each
the whole text with a one-character edit at the end of the last line
(alternately added and removed), and times each from the write of the
notification to the arrival of its publishDiagnostics. Prints the median
and the 90th percentile per file and over all files, and, with
--clang-tidy, the median wall time of one `clang-tidy FILE -- <kcheck's
CUDA flags>` per file for comparison (the tool an editor would otherwise
run on save; three runs).

--no-cache keeps the result cache out of it: every change is really
re-parsed (the file's own precompiled preamble and the shared header
cache still serve, as they do in an editor).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kcheck", default="build/kcheck")
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--toolkit", action="store_true")
    ap.add_argument("--clang-tidy", dest="clang_tidy")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    args = [a.kcheck, "lsp", "--no-cache", "--no-config"] + (["--toolkit"] if a.toolkit else [])
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(obj):
        body = json.dumps(obj).encode()
        proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        proc.stdin.flush()

    def recv():
        n = None
        while True:
            line = proc.stdout.readline()
            if not line:
                sys.exit("lsp_didchange: the server stopped")
            if line in (b"\r\n", b"\n"):
                break
            k, _, v = line.decode().partition(":")
            if k.lower() == "content-length":
                n = int(v)
        return json.loads(proc.stdout.read(n))

    def wait_published(uri, version):
        while True:
            m = recv()
            p = m.get("params") or {}
            if m.get("method") == "textDocument/publishDiagnostics" and p.get("uri") == uri and \
                    p.get("version") == version:
                return p

    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
    recv()
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    every = []
    for path in a.files:
        text = open(path, encoding="utf-8", errors="surrogateescape").read()
        uri = "file://" + os.path.abspath(path)
        t0 = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen",
              "params": {"textDocument": {"uri": uri, "languageId": "cuda", "version": 1, "text": text}}})
        first = wait_published(uri, 1)
        open_ms = (time.perf_counter() - t0) * 1000
        times = []
        for i in range(a.n):
            edited = text + (" " if i % 2 == 0 else "")
            t0 = time.perf_counter()
            send({"jsonrpc": "2.0", "method": "textDocument/didChange",
                  "params": {"textDocument": {"uri": uri, "version": i + 2}, "contentChanges": [{"text": edited}]}})
            wait_published(uri, i + 2)
            times.append((time.perf_counter() - t0) * 1000)
        send({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
        every += times
        times.sort()
        line = "%-40s open %7.1f ms  didChange median %6.1f ms  p90 %6.1f ms  (%d findings)" % (
            os.path.basename(path), open_ms, statistics.median(times), times[int(len(times) * 0.9) - 1],
            len(first["diagnostics"]))
        if a.clang_tidy:
            with tempfile.TemporaryDirectory() as d:
                subprocess.run([a.kcheck, "--dump-shim", d] + (["--toolkit"] if a.toolkit else []),
                               capture_output=True, check=True)
                flags = open(os.path.join(d, "compile_flags.txt")).read().split("\n")
                flags = [f for f in flags if f]
                runs = []
                for _ in range(3):
                    t0 = time.perf_counter()
                    subprocess.run([a.clang_tidy, path, "--"] + flags, capture_output=True)
                    runs.append((time.perf_counter() - t0) * 1000)
                line += "  clang-tidy %7.1f ms" % statistics.median(runs)
        print(line, flush=True)
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    recv()
    send({"jsonrpc": "2.0", "method": "exit", "params": None})
    proc.wait(timeout=30)
    every.sort()
    print("all %d files: didChange median %.1f ms, p90 %.1f ms over %d changes" % (
        len(a.files), statistics.median(every), every[int(len(every) * 0.9) - 1], len(every)))


if __name__ == "__main__":
    main()
