# A launch outside any function whose arguments unpack a module-level
# tuple: the splat's width is looked up in the module (once crashed).
import torch
import triton
import triton.language as tl


@triton.jit
def scale(x_ptr, y_ptr, n, sx, sy, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs * sy, tl.load(x_ptr + offs * sx, mask=offs < n), mask=offs < n)


if __name__ == "__main__":
    x = torch.randn(4096, device="cuda")
    y = torch.empty_like(x)
    strides = (
        x.stride(0),
        y.stride(0),
    )
    scale[(4,)](x, y, x.numel(), *strides, BLOCK=1024)
