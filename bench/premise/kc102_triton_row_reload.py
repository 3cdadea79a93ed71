"""KC102 premise on Triton: a weight vector reloaded in every pass of a
persistent loop over rows, beside the rows each pass streams and stores.

The shape of an RMSNorm backward (mdy_triton's core/rmsnorm.py, reviewed in
the fifty-sixth first-sight round): each program walks rows pid, pid + P,
...; every pass loads X and DY rows, stores a DX row and reloads W (the
same BLOCK_N elements). `reload` keeps the W load in the loop (Triton keeps
it there because the loop stores), `hoisted` loads it once before the loop.
Run on a GPU machine from the repository root:

  python3 bench/premise/kc102_triton_row_reload.py

Prints the median time of each over several row widths and the ratio.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def bwd_reload(X, DY, W, DX, M, N, BLOCK_N: tl.constexpr):
    start = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    for row in range(start, M, tl.num_programs(0)):
        w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.load(X + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.rsqrt(tl.sum(x * x, 0) / N + 1e-6)
        dx = dy * w * r - x * (r * r * r) * tl.sum(dy * w * x, 0) / N
        tl.store(DX + row * N + cols, dx.to(DX.dtype.element_ty), mask=mask)


@triton.jit
def bwd_hoisted(X, DY, W, DX, M, N, BLOCK_N: tl.constexpr):
    start = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    for row in range(start, M, tl.num_programs(0)):
        x = tl.load(X + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(DY + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        r = tl.rsqrt(tl.sum(x * x, 0) / N + 1e-6)
        dx = dy * w * r - x * (r * r * r) * tl.sum(dy * w * x, 0) / N
        tl.store(DX + row * N + cols, dx.to(DX.dtype.element_ty), mask=mask)


def main():
    torch.manual_seed(0)
    dev = "cuda"
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    for M, N in [(65536, 128), (65536, 1024), (32768, 4096), (16384, 8192)]:
        x = torch.randn(M, N, device=dev, dtype=torch.bfloat16)
        dy = torch.randn(M, N, device=dev, dtype=torch.bfloat16)
        w = torch.randn(N, device=dev, dtype=torch.bfloat16)
        out = {}
        for name, k in (("reload", bwd_reload), ("hoisted", bwd_hoisted)):
            dx = torch.empty_like(x)
            BN = triton.next_power_of_2(N)
            grid = (min(M, sms * 4),)
            k[grid](x, dy, w, dx, M, N, BLOCK_N=BN)
            torch.cuda.synchronize()
            out[name] = (triton.testing.do_bench(lambda: k[grid](x, dy, w, dx, M, N, BLOCK_N=BN), warmup=50, rep=300), dx.clone())
        same = torch.equal(out["reload"][1], out["hoisted"][1])
        r, h = out["reload"][0], out["hoisted"][0]
        print(f"M={M} N={N}: reload {r:.4f} ms, hoisted {h:.4f} ms, reload/hoisted {r / h:.3f}, same output {same}")


if __name__ == "__main__":
    main()
