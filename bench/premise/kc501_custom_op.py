"""KC501 premise: does torch.compile pass a Python float to a Triton kernel as
fp64 when the launch is inside a torch.library.custom_op (also one registered
through a decorator factory, as projects wrap it)? Each way of launching runs
y = x.to(fp32) * s under torch.compile(fullgraph=True) and is compared bit for
bit with the fp32 result (s rounded to fp32 first) and the fp64 one (rounded
to fp32 at the end).

    python3 bench/premise/kc501_custom_op.py
"""
import torch
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, y_ptr, n, s, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0).to(tl.float32)
    tl.store(y_ptr + offs, x * s, mask=offs < n)


def launch(x, s):
    y = torch.empty_like(x, dtype=torch.float32)
    scale_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), s, BLOCK=1024)
    return y


@torch.library.custom_op("kcheck_premise::scale_direct", mutates_args=())
def scale_op(x: torch.Tensor, s: float) -> torch.Tensor:
    return launch(x, s)


@scale_op.register_fake
def _(x, s):
    return torch.empty_like(x, dtype=torch.float32)


def register_kernel_op(name):
    def decorator(fn):
        return torch.library.custom_op(f"kcheck_premise::{name}", mutates_args=())(fn)
    return decorator


@register_kernel_op("scale_factory")
def scale_factory(x: torch.Tensor, s: float) -> torch.Tensor:
    return launch(x, s)


@scale_factory.register_fake
def _(x, s):
    return torch.empty_like(x, dtype=torch.float32)


class Direct(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return launch(x, s)


class ThroughOp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return scale_op(x, s)


class ThroughFactory(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, s):
        return scale_factory(x, s)


def main():
    print(f"torch {torch.__version__} triton {triton.__version__} device {torch.cuda.get_device_name()}")
    torch.manual_seed(0)
    x = torch.randn(1 << 20, device="cuda", dtype=torch.float32)
    s = 0.1
    ref32 = x * torch.tensor(s, dtype=torch.float32, device="cuda")
    ref64 = (x.double() * s).float()
    print(f"elements where the fp32 and fp64 results differ: {(ref32 != ref64).sum().item()} of {x.numel()}")
    ways = {
        "eager launch": lambda x, s: launch(x, s),
        "autograd.Function -> launch": lambda x, s: Direct.apply(x, s),
        "autograd.Function -> custom_op": lambda x, s: ThroughOp.apply(x, s),
        "autograd.Function -> custom_op by decorator factory": lambda x, s: ThroughFactory.apply(x, s),
        "custom_op called directly": lambda x, s: scale_op(x, s),
    }
    for name, fn in ways.items():
        for compiled in (False, True):
            if name == "eager launch" and compiled:
                continue
            torch._dynamo.reset()
            f = torch.compile(fn, fullgraph=True) if compiled else fn
            y = f(x, s)
            torch.cuda.synchronize()
            verdict = ("fp32" if torch.equal(y, ref32) else "fp64" if torch.equal(y, ref64) else "neither")
            print(f"KC501 {'compiled' if compiled else 'eager   '} {name:52} matches {verdict} bit for bit")


if __name__ == "__main__":
    main()
