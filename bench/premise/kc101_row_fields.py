"""KC101 premise (Triton): a lane that reads every field of its small row
with one tl.load per field (w0 .. w3 of a (dim, 4) weight, the lanes 4
elements apart) moves whole rows, which the caches merge; one field of each
row of 16 does not. KC101 reports the first as a note.

    python3 bench/premise/kc101_row_fields.py

Times (triton.testing.do_bench, median ms) over DIM = 2^24 channels:
  soa        four contiguous arrays, one load each (lanes adjacent)
  rows4      a (DIM, 4) tensor, fields 0..3 (lanes 4 apart, every field read)
  rows16of4  a (DIM, 16) tensor, fields 0..3 (lanes 16 apart, 4 of 16 read)
and each one's ratio to soa.
"""
import torch
import triton
import triton.language as tl


@triton.jit
def fields(w_ptr, out_ptr, dim, stride_c, stride_f, stride_arr, BLOCK: tl.constexpr):
    offs = (tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)).to(tl.int64)
    mask = offs < dim
    p = w_ptr + offs * stride_c
    w0 = tl.load(p + 0 * stride_f + 0 * stride_arr, mask=mask)
    w1 = tl.load(p + 1 * stride_f + 1 * stride_arr, mask=mask)
    w2 = tl.load(p + 2 * stride_f + 2 * stride_arr, mask=mask)
    w3 = tl.load(p + 3 * stride_f + 3 * stride_arr, mask=mask)
    tl.store(out_ptr + offs, w0 + w1 + w2 + w3, mask=mask)


def main():
    dim = 1 << 24
    out = torch.empty(dim, device="cuda")
    soa = torch.rand(4 * dim, device="cuda")
    rows4 = torch.rand(dim, 4, device="cuda")
    rows16 = torch.rand(dim, 16, device="cuda")
    grid = (triton.cdiv(dim, 256),)
    cases = [
        ("soa", lambda: fields[grid](soa, out, dim, 1, 0, dim, BLOCK=256)),
        ("rows4", lambda: fields[grid](rows4, out, dim, rows4.stride(0), rows4.stride(1), 0, BLOCK=256)),
        ("rows16of4", lambda: fields[grid](rows16, out, dim, rows16.stride(0), rows16.stride(1), 0, BLOCK=256)),
    ]
    print("device:", torch.cuda.get_device_name(), "torch", torch.__version__, "triton", triton.__version__)
    base = None
    for name, fn in cases:
        fn()
        torch.cuda.synchronize()
        ms = triton.testing.do_bench(fn)
        base = base or ms
        print(f"{name:10s} {ms:8.3f} ms  {ms / base:5.2f}x")


if __name__ == "__main__":
    main()
