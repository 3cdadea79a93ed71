"""KC101 premise (Triton): a block of rows whose lanes each walk their own
record one element a pass, in a runtime `range(0, S)` over the lane stride S
itself (flux's top-k indices: `tl.load(idx + row * TOPK + k)` for k in
range(TOPK)). Each pass reads one element of every row, S elements apart;
the next pass reads the neighbouring elements of the same sectors. KC101
treats such a walk of a record of at most 56 bytes (loads) as free, as it
does in CUDA (bench/premise/kc101_record_walk.cu) and for tl.static_range.

    python3 bench/premise/kc101_triton_range_walk.py

For S in 4, 8, 14, 16, 32, 64 (int32 records, 2^22 rows, BLOCK_M = 128),
times (triton.testing.do_bench, median ms) of:
  rows       the records row-major (M, S): lanes S elements apart per pass
  columns    the same values stored transposed (S, M): lanes adjacent
and rows / columns. Both sum each record and store one value per row.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def walk(idx_ptr, out_ptr, M, stride_row, stride_k, S: tl.constexpr, BLOCK_M: tl.constexpr):
    row = tl.program_id(0).to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    mask = row < M
    acc = tl.zeros((BLOCK_M,), dtype=tl.int32)
    for k in range(0, S):
        acc += tl.load(idx_ptr + row * stride_row + k * stride_k, mask=mask, other=0)
    tl.store(out_ptr + row, acc, mask=mask)


def main():
    m = 1 << 22
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__)
    out = torch.empty(m, device="cuda", dtype=torch.int32)
    grid = (triton.cdiv(m, 128),)
    for s in (4, 8, 14, 16, 32, 64):
        rows = torch.randint(0, 1000, (m, s), device="cuda", dtype=torch.int32)
        cols = rows.t().contiguous()
        f_rows = lambda: walk[grid](rows, out, m, rows.stride(0), rows.stride(1), S=s, BLOCK_M=128)
        f_cols = lambda: walk[grid](cols, out, m, cols.stride(1), cols.stride(0), S=s, BLOCK_M=128)
        f_rows()
        ref = out.clone()
        f_cols()
        assert torch.equal(ref, out)
        t_rows = triton.testing.do_bench(f_rows)
        t_cols = triton.testing.do_bench(f_cols)
        print(f"S={s:3d} ({4 * s:4d} B)  rows {t_rows:8.3f} ms  columns {t_cols:8.3f} ms  rows/columns {t_rows / t_cols:5.2f}x")


if __name__ == "__main__":
    main()
