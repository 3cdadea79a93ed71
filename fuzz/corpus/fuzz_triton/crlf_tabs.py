import triton
import triton.language as tl

@triton.jit
def k(x_ptr, N, B: tl.constexpr):
	for s in tl.static_range(0, N, B):
		tl.store(x_ptr + s + tl.arange(0, B), 0)
