import triton
import triton.language as tl
# été ∑
@triton.jit
def k(x_ptr, N, B: tl.constexpr):
    s = "😀"; o = tl.arange(0, B)
    for s in tl.static_range(0, N, B): tl.store(x_ptr + s + o, 0)
