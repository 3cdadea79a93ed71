# kcheck: ignore-file[KC101]
import triton
import triton.language as tl

@triton.jit
def k(p, N: tl.constexpr):
    # kcheck: ignore[KC201, view-reorder]
    for i in tl.static_range(N):
        tl.store(p + i, i)  # kcheck: ignore
    x = tl.load(p)  # kcheck: ignore[KC1O1]
    # kcheck: bogus
