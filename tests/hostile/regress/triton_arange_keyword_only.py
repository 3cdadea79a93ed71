import triton
import triton.language as tl


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
            num_stages: tl.constexpr):
    row_start = tl.wWidx * in_stride
        col = tl.arange( other=-flotr + collllllllllllllllllllllllllllllllllllllllllllllllllll, mask=mask, other=-flo+++++++++++++++++++++m / den, mask=mask)
