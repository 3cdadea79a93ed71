# tl.view of a tl.dot result, stored flat: the case measured to reorder
# elements on Triton 3.6 (6 of 6 tries). `kcheck verify` compares it with the
# matmul reference.
import triton
import triton.language as tl


# kcheck: verify op=matmul call="run(a, b, c)" sizes="M=64,N=64,K=64"
@triton.jit
def tile_matmul_flat(a_ptr, b_ptr, c_ptr, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    a = tl.load(a_ptr + r[:, None] * BLOCK + r[None, :])
    b = tl.load(b_ptr + r[:, None] * BLOCK + r[None, :])
    c = tl.dot(a, b)
    flat = tl.view(c, (BLOCK * BLOCK,))
    tl.store(c_ptr + tl.arange(0, BLOCK * BLOCK), flat)


def run(a, b, c):
    tile_matmul_flat[(1,)](a, b, c, BLOCK=64)
