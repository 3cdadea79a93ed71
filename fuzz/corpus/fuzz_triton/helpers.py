import triton
import triton.language as tl
import triton.language as language
from triton.language.extra import libdevice


@triton.jit
def _helper(x, y):
    return x * y + 1.0


@triton.jit
def main(X, Y, Z, n: tl.int64, BLOCK: tl.constexpr = 1024, DT: tl.constexpr = tl.bfloat16):
    i = tl.program_id(axis=0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    m = i < n
    a = tl.load(X + i, mask=m)
    b = tl.load(Y + i, mask=m, eviction_policy="evict_last")
    c = _helper(a, b)
    while n > 0:
        n = n // 2
    if (a > 0) and (b > 0):
        c = tl.where(m, c, 0.0)
    c = libdevice.tanh(c.to(tl.float32)) + 0.5
    tl.atomic_add(Z + i, c.to(DT), mask=m)
    ptr = tl.make_block_ptr(X, shape=(n, n), strides=(n, 1), offsets=(0, 0), block_shape=(BLOCK, 1), order=(1, 0))
    blk = tl.load(ptr, boundary_check=(0, 1))
    tl.static_assert(BLOCK >= 16, "too small")
    tl.device_print("x", blk)


def launch(x, y, z):
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta['BLOCK']),)
    main[grid](x, y, z, n, BLOCK=256)
