import triton
import triton.language as tl


@triton.jit
def softmax(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
            num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_ptr = in_ptr + row_idx * in_stride
        col = tl.arange(0, BLOCK_SIZE)
        mask = col < n_cols
        row = tl.load(row_ptr + col, mask=mask, other=-float('inf'))
        row = row - tl.max(row, axis=0)
        num = tl.exp(row)
        den = tl.sum(num, axis=0)
        tl.store(out_ptr + row_idx * out_stride + col, num / den, mask=mask)
