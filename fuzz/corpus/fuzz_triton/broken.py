import triton
@triton.jit
def k(:
    for s in tl.static_range(0, N, B
