import triton
import triton.language as tl

# kcheck: verify op=gather call="run(x, idx, out)"
@triton.jit
def gather(x_ptr, idx_ptr, out_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    t = tl.load(idx_ptr + rows, mask=rows < M)
    for index in range(0, N, BLOCK_N):
        v = tl.load(x_ptr + rows[:, None] * stride_m + t[:, None] + cols[None, :],
                    mask=(rows[:, None] < M) & (cols[None, :] < N), other=0)
        tl.store(out_ptr + rows[:, None] * N + index + cols[None, :], v)


def run(x, idx, out):
    M, N = x.shape
    gather[(triton.cdiv(M, 32),)](x, idx, out, M, N, x.stride(0), BLOCK_M=32, BLOCK_N=64)
