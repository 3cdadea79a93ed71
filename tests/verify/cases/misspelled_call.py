# A verify test case: a binding whose call= names a buffer that does not
# exist (`outt`): the binding's mistake, exit 2, not a verdict on the kernel.
import triton
import triton.language as tl


# kcheck: verify op=scale_rows call="run(x, outt)"
@triton.jit
def scale_cols(x_ptr, out_ptr, M, N, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    rows = tl.arange(0, BLOCK)
    for start in range(0, M, BLOCK):
        r = start + rows
        v = tl.load(x_ptr + r * N + col, mask=r < M)
        tl.store(out_ptr + r * N + col, 2 * v, mask=r < M)


def run(x, out):
    M, N = x.shape
    scale_cols[(N,)](x, out, M, N, BLOCK=128)
