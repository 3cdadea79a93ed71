"""KC102 premise on Triton: a program-uniform scalar reloaded in every pass
of a loop whose passes each load a tile, do a `tl.dot` and store a block.

The shape of a sparse-attention indexer (xkernels' dsa_indexer_kernel.py,
reviewed in the fifty-seventh first-sight round): program t streams the
keys in BLOCK_K chunks, scores them against its [H, D] query block with a
dot, masks them with a per-program window (`start`, `length`) loaded
again in every pass (the loop stores, so Triton keeps the loads there),
and stores the chunk's logits. `reload` keeps the two scalar loads in the
loop, `hoisted` loads them once before it. A second pair does the same
beside a plain row copy (one load and one store per pass, no dot): the
cheapest pass a scalar can sit beside. Run on a GPU machine from the
repository root:

  python3 bench/premise/kc102_triton_scalar_reload.py

Prints the median time of each and the ratio.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def idx_reload(Q, K, LEN, START, OUT, T, NK, D: tl.constexpr, H: tl.constexpr, BLOCK_K: tl.constexpr):
    t = tl.program_id(0)
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    q = tl.load(Q + t * H * D + h[:, None] * D + d[None, :])
    for k0 in tl.range(0, NK, BLOCK_K):
        kk = k0 + tl.arange(0, BLOCK_K)
        km = kk < NK
        kb = tl.load(K + kk[:, None] * D + d[None, :], mask=km[:, None], other=0.0)
        s = tl.sum(tl.maximum(tl.dot(q, tl.trans(kb)), 0.0), axis=0)
        length = tl.load(LEN + t)
        start = tl.load(START + t)
        s = tl.where((kk >= start) & (kk < start + length), s, -1e30)
        tl.store(OUT + t * NK + kk, s, mask=km)


@triton.jit
def idx_hoisted(Q, K, LEN, START, OUT, T, NK, D: tl.constexpr, H: tl.constexpr, BLOCK_K: tl.constexpr):
    t = tl.program_id(0)
    h = tl.arange(0, H)
    d = tl.arange(0, D)
    q = tl.load(Q + t * H * D + h[:, None] * D + d[None, :])
    length = tl.load(LEN + t)
    start = tl.load(START + t)
    for k0 in tl.range(0, NK, BLOCK_K):
        kk = k0 + tl.arange(0, BLOCK_K)
        km = kk < NK
        kb = tl.load(K + kk[:, None] * D + d[None, :], mask=km[:, None], other=0.0)
        s = tl.sum(tl.maximum(tl.dot(q, tl.trans(kb)), 0.0), axis=0)
        s = tl.where((kk >= start) & (kk < start + length), s, -1e30)
        tl.store(OUT + t * NK + kk, s, mask=km)


@triton.jit
def copy_reload(X, SC, Y, N, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    for c0 in tl.range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        m = c < N
        s = tl.load(SC + r)
        tl.store(Y + r * N + c, tl.load(X + r * N + c, mask=m) * s, mask=m)


@triton.jit
def copy_hoisted(X, SC, Y, N, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    s = tl.load(SC + r)
    for c0 in tl.range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        m = c < N
        tl.store(Y + r * N + c, tl.load(X + r * N + c, mask=m) * s, mask=m)


def bench(fn):
    fn()
    torch.cuda.synchronize()
    return triton.testing.do_bench(fn, warmup=50, rep=300)


def main():
    torch.manual_seed(0)
    dev = "cuda"
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__)
    for T, NK, D, H in [(1024, 4096, 64, 16), (2048, 8192, 128, 32), (512, 32768, 128, 64)]:
        q = torch.randn(T, H, D, device=dev, dtype=torch.bfloat16)
        k = torch.randn(NK, D, device=dev, dtype=torch.bfloat16)
        ln = torch.randint(1, NK, (T,), device=dev, dtype=torch.int32)
        st = torch.randint(0, NK // 2, (T,), device=dev, dtype=torch.int32)
        res = {}
        for name, kern in (("reload", idx_reload), ("hoisted", idx_hoisted)):
            out = torch.empty(T, NK, device=dev, dtype=torch.float32)
            ms = bench(lambda: kern[(T,)](q, k, ln, st, out, T, NK, D=D, H=H, BLOCK_K=64))
            res[name] = (ms, out.clone())
        r, h = res["reload"][0], res["hoisted"][0]
        print(f"indexer T={T} NK={NK} D={D} H={H}: reload {r:.4f} ms, hoisted {h:.4f} ms, reload/hoisted {r / h:.3f}, "
              f"same output {torch.equal(res['reload'][1], res['hoisted'][1])}")
    for M, N in [(4096, 4096), (16384, 1024), (1024, 65536)]:
        x = torch.randn(M, N, device=dev, dtype=torch.float32)
        sc = torch.randn(M, device=dev, dtype=torch.float32)
        res = {}
        for name, kern in (("reload", copy_reload), ("hoisted", copy_hoisted)):
            y = torch.empty_like(x)
            ms = bench(lambda: kern[(M,)](x, sc, y, N, BLOCK=1024))
            res[name] = (ms, y.clone())
        r, h = res["reload"][0], res["hoisted"][0]
        print(f"row copy M={M} N={N}: reload {r:.4f} ms, hoisted {h:.4f} ms, reload/hoisted {r / h:.3f}, "
              f"same output {torch.equal(res['reload'][1], res['hoisted'][1])}")


if __name__ == "__main__":
    main()
