# The user's own command for ops.py: a small test of each op, or
# `run_ops.py big`: row_scale on 40000 x 65536 bf16 (2.6e9 elements, 5.2 GB;
# 32 GB of GPU memory with verify's copies), past 2^31 elements.
import sys

import torch

import ops


def main():
    torch.manual_seed(0)
    dev = "cuda"
    if sys.argv[1:] == ["big"]:
        x = torch.randn(40000, 65536, device=dev, dtype=torch.bfloat16)
        y = ops.row_scale(x, 2.0)
        print("row_scale big: last row ok:", bool(torch.equal(y[-1], x[-1] * 2)))
        return
    x = torch.randn(300, 1000, device=dev)
    assert torch.allclose(ops.row_scale(x, 2.0), x * 2)
    a, b = torch.randn(1000003, device=dev), torch.randn(1000003, device=dev)
    assert torch.allclose(ops.add(a, b), a + b)
    logits = torch.randn(64, 128000, device=dev)
    assert torch.allclose(ops.row_max(logits), logits.max(dim=1).values)
    print("ops ok")


if __name__ == "__main__":
    main()
