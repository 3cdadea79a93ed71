"""GPU premise check for KC301's fold of a view to the shape the block
already has, run on a GPU machine:

  python3 bench/premise/kc301_same_shape_view.py

KC301 does not report `tl.view(x, shape)` (a reshape that may reorder)
when `x` already has `shape`: the premise is that Triton folds such a view
away, so no element can move. A view to another shape is what KC301
reports. For each kernel below this prints whether a `tt.reshape` is left
in the TTIR and in the TTGIR, and whether the stored block equals the
loaded one element for element (2D blocks, so a reorder would show):

  same_shape_view     tl.view(x, (BM, BN)) on an x of (BM, BN)
  same_shape_reshape  tl.reshape(x, (BM, BN), can_reorder=True), same shape
  flat_view           tl.view(x, (BM * BN,)) then back with tl.reshape:
                      a real view, for contrast
"""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def same_shape_view(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + offs)
    y = tl.view(x, (BM, BN))
    tl.store(y_ptr + offs, y)


@triton.jit
def same_shape_reshape(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + offs)
    y = tl.reshape(x, (BM, BN), can_reorder=True)
    tl.store(y_ptr + offs, y)


@triton.jit
def flat_view(x_ptr, y_ptr, BM: tl.constexpr, BN: tl.constexpr):
    offs = tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :]
    x = tl.load(x_ptr + offs)
    f = tl.view(x, (BM * BN,))
    y = tl.reshape(f * 2.0, (BM, BN))
    tl.store(y_ptr + offs, y * 0.5)


def main():
    if not torch.cuda.is_available():
        print("no GPU: nothing measured")
        return 0
    print(f"torch {torch.__version__}, triton {triton.__version__}, {torch.cuda.get_device_name()}")
    bm, bn = 64, 64
    x = torch.randn(bm, bn, device="cuda")
    for k in (same_shape_view, same_shape_reshape, flat_view):
        y = torch.empty_like(x)
        ck = k[(1,)](x, y, BM=bm, BN=bn)
        torch.cuda.synchronize()
        ttir, ttgir = ck.asm["ttir"], ck.asm["ttgir"]
        print(f"{k.fn.__name__}: tt.reshape in TTIR: {ttir.count('tt.reshape')}, in TTGIR: "
              f"{ttgir.count('tt.reshape')}; output equals input element for element: {torch.equal(x, y)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
