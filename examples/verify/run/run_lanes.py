# The user's own command for lanes.py: sizes that are not multiples of the
# blocks (K = 100 with BLOCK_K = 32, 1000 columns in a 1024-lane block),
# with the memory past each row filled with NaN, as a neighbour's data can be.
import torch

import lanes


def main():
    torch.manual_seed(0)
    dev = "cuda"
    a = torch.full((256, 128), float("nan"), device=dev, dtype=torch.float16)[:, :100]
    b = torch.full((100, 256), float("nan"), device=dev, dtype=torch.float16)
    a.copy_(torch.randn(256, 100, device=dev, dtype=torch.float16))
    b.copy_(torch.randn(100, 256, device=dev, dtype=torch.float16))
    c = lanes.mm(a, b)
    print("mm: max |c - ref| =", (c - a.float() @ b.float()).abs().max().item())
    x = torch.randn(64, 1000, device=dev)
    y = lanes.softmax(x)
    print("softmax: max |y - ref| =", (y - torch.softmax(x, 1)).abs().max().item())


if __name__ == "__main__":
    main()
